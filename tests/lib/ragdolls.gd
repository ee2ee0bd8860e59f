extends RefCounted
## Ragdoll fixtures (issue 40): the 12-bone figure (lib/ragdoll_figure.gd, shared with the demo), a Ragdoll2D on it
## with the figure's limits, and the measures the ragdoll tests and the benchmark share (the points compared, how
## deep a bone is inside a box, the distance between two bones).

const Rig := preload("res://lib/rig.gd")
const Figure := preload("res://lib/ragdoll_figure.gd")
## The figure's bones (see lib/ragdoll_figure.gd).
const BONES := Figure.BONES

## The figure under `parent` at `at` (scale `scale`): {skeleton, bones} (lib/ragdoll_figure.gd).
static func figure(parent: Node, at: Vector2, scale := Vector2.ONE) -> Dictionary:
	return Figure.figure(parent, at, scale)


## A Ragdoll2D on `figure`'s bones (added under `parent`), each bone's limit from BONES (the root has none).
static func ragdoll(parent: Node, figure: Dictionary) -> Node2D:
	var node: Node2D = ClassDB.instantiate("Ragdoll2D")
	parent.add_child(node)
	node.root_bone = figure["bones"][0]
	for i in BONES.size():
		if i > 0:
			node.set_angle_limits(ordered_index(node, figure["bones"][i]), BONES[i][6], BONES[i][7])
	return node


## The ragdoll's index of `bone`.
static func ordered_index(node: Node2D, bone: Bone2D) -> int:
	for i in node.get_bone_count():
		if node.get_ragdoll_bone(i) == bone:
			return i
	return -1


## Each bone's global origin, then each bone's end: the points the measures compare.
static func points_of(bones: Array) -> PackedVector2Array:
	var out := PackedVector2Array()
	for b in bones:
		out.append(b.global_position)
	for b in bones:
		out.append(Rig.bone_end(b))
	return out


## How far (px) the segment from `a` to `b` reaches inside the axis-aligned `box` (0 when it stays out), sampled.
static func depth_in_box(a: Vector2, b: Vector2, box: Rect2) -> float:
	var worst := 0.0
	for k in 21:
		var p := a.lerp(b, k / 20.0)
		if box.has_point(p):
			var d := minf(minf(p.x - box.position.x, box.end.x - p.x), minf(p.y - box.position.y, box.end.y - p.y))
			worst = maxf(worst, d)
	return worst


## The shortest distance between segments ab and cd (sampled on ab, exact on cd).
static func segment_distance(a: Vector2, b: Vector2, c: Vector2, d: Vector2) -> float:
	var best := INF
	for k in 11:
		var p := a.lerp(b, k / 10.0)
		best = minf(best, p.distance_to(Geometry2D.get_closest_point_to_segment(p, c, d)))
	for k in 11:
		var p := c.lerp(d, k / 10.0)
		best = minf(best, p.distance_to(Geometry2D.get_closest_point_to_segment(p, a, b)))
	return best
