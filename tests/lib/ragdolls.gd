extends RefCounted
## Ragdoll fixtures (issue 40): a 12-bone figure, its limits, a Ragdoll2D on it, and the measures the ragdoll tests
## and the benchmark share (joint speeds, how deep a bone is inside a box).

const Rig := preload("res://lib/rig.gd")

## The figure's bones: [name, parent index (-1: the skeleton), position in the parent, length, bone angle, rotation,
## limit min, limit max]. Standing, y down, facing +x: hips (the root) at the skeleton's origin, the spine and head
## drawn up (bone angle -PI/2), arms and legs hanging (PI/2); elbows and knees bend one way. 12 bones.
const BONES := [
	["Hips", -1, Vector2(0, 0), 20.0, -PI / 2, 0.0, 0.0, 0.0],
	["Belly", 0, Vector2(0, -20), 22.0, -PI / 2, 0.0, -0.5, 0.5],
	["Chest", 1, Vector2(0, -22), 24.0, -PI / 2, 0.0, -0.5, 0.5],
	["Head", 2, Vector2(0, -24), 18.0, -PI / 2, 0.0, -0.6, 0.6],
	["UpperArmL", 2, Vector2(0, -20), 26.0, PI / 2, 0.3, -2.8, 2.8],
	["ForeArmL", 4, Vector2(0, 26), 24.0, PI / 2, -0.2, -2.4, 0.05],
	["UpperArmR", 2, Vector2(0, -20), 26.0, PI / 2, -0.3, -2.8, 2.8],
	["ForeArmR", 6, Vector2(0, 26), 24.0, PI / 2, -0.1, -2.4, 0.05],
	["ThighL", 0, Vector2(0, 0), 34.0, PI / 2, 0.15, -1.6, 1.2],
	["ShinL", 8, Vector2(0, 34), 32.0, PI / 2, 0.1, -0.05, 2.2],
	["ThighR", 0, Vector2(0, 0), 34.0, PI / 2, -0.15, -1.6, 1.2],
	["ShinR", 10, Vector2(0, 34), 32.0, PI / 2, 0.05, -0.05, 2.2],
]


## A Skeleton2D under `parent` at `at` (scale `scale`) holding the figure; returns {skeleton, bones}. The bones are
## created parents first, in the order Ragdoll2D numbers them (each before its children, depth first).
static func figure(parent: Node, at: Vector2, scale := Vector2.ONE) -> Dictionary:
	var skeleton := Skeleton2D.new()
	skeleton.position = at
	skeleton.scale = scale
	parent.add_child(skeleton)
	var bones: Array[Bone2D] = []
	for spec in BONES:
		var holder: Node = skeleton if spec[1] < 0 else bones[spec[1]]
		bones.append(Rig.bone(holder, spec[0], spec[2], spec[3], spec[4], spec[5]))
	return {"skeleton": skeleton, "bones": bones}


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
