extends SceneTree
## PathChain2D against the same fit written as a GDScript loop over the bones, on the same chains, in one process.
## Run with `cargo xtask bench` (release build of the extension, in Godot's editor build with its debug checks).
## Prints microseconds per chain per solve (median [p10, p90] over repeats), the ratio, and the worst distance of a
## joint from the curve's baked points each leaves.

const Rig := preload("res://lib/rig.gd")
const Characters := preload("res://lib/characters.gd")
const Timing := preload("res://bench/timing.gd")
const CHAINS := 64
const REPEATS := 201
const LENGTH := 20.0


func _initialize() -> void:
	Timing.start_watchdog(self, 600.0)
	_run.call_deferred()


## A chain of `n` bones of LENGTH px (bone angles 0) on a skeleton at `at`, mirrored when `mirrored`, with a Path2D
## (the S-curve, Characters.s_curve, starting at the chain's root) that is the skeleton's sibling under a parent
## mirrored the same way.
func make_chain(n: int, at: Vector2, mirrored: bool) -> Dictionary:
	var holder := Node2D.new()
	holder.position = at
	holder.scale = Vector2(-1, 1) if mirrored else Vector2.ONE
	root.add_child(holder)
	var skeleton := Skeleton2D.new()
	holder.add_child(skeleton)
	var lengths := []
	lengths.resize(n)
	lengths.fill(LENGTH)
	var bones := Rig.chain(skeleton, lengths, [], "b%d")
	var path := Path2D.new()
	path.curve = Characters.s_curve()
	holder.add_child(path)
	return {"holder": holder, "bones": bones, "path": path}


## The pose an animation would give the bones before the fit: a curl that differs per repeat.
func pose(c: Dictionary, r: int) -> void:
	var bones: Array = c["bones"]
	for i in bones.size():
		bones[i].rotation = 0.2 * sin(0.7 * r + i)


## The largest distance (px) of a joint of `bones` from `path`'s baked points.
func worst_off_curve(bones: Array, path: Path2D) -> float:
	var worst := 0.0
	var joints: Array = []
	for b in bones:
		joints.append(b.global_position)
	joints.append(Rig.bone_end(bones[-1]))
	for joint in joints:
		worst = maxf(worst, path.to_global(path.curve.get_closest_point(path.to_local(joint))).distance_to(joint))
	return worst


## Per chain per solve, for chains of `n` bones: each repeat poses every chain (pose()) and solves each once, the
## PathChain2D set and the GDScript set (GdFit) one after the other, so both see the same load on a shared machine.
## Returns [PathChain2D's stats, GDScript's], each with the worst joint off the curve after the last repeat.
func measure(n: int) -> Array:
	var sets := [[], []]
	var solvers := [[], []]
	for k in CHAINS:
		for which in 2:
			var c := make_chain(n, Vector2(200 + (k % 8) * 900, 300 + (k / 8) * 300 + which * 3000), k % 2 == 1)
			sets[which].append(c)
			if which == 1:
				solvers[1].append(GdFit.new(c["bones"], c["path"]))
				continue
			var node: Node2D = ClassDB.instantiate("PathChain2D")
			node.update_mode = 2
			node.path = c["path"]
			node.root_bone = c["bones"][0]
			node.tip_bone = c["bones"][-1]
			c["holder"].add_child(node)
			solvers[0].append(node)
	# Warm up: the first solve samples the curve (both cache it) and sizes the buffers.
	for which in 2:
		for s in solvers[which]:
			s.solve()
	var samples := [[], []]
	for r in REPEATS:
		for which in 2:
			for c in sets[which]:
				pose(c, r)
			var start := Time.get_ticks_usec()
			for s in solvers[which]:
				s.solve()
			samples[which].append(float(Time.get_ticks_usec() - start) / CHAINS)
	var out := []
	for which in 2:
		var worst := 0.0
		for c in sets[which]:
			worst = maxf(worst, worst_off_curve(c["bones"], c["path"]))
			c["holder"].free()
		var s := Timing.stats(samples[which])
		s["error"] = worst
		out.append(s)
	return out


func _run() -> void:
	print("")
	print("# PathChain2D vs the same fit as a GDScript loop (fit mode, the root on an S-curve's start, bones of %d px, bone angles 0, half the chains mirrored), %s editor build (debug checks), release extension" % [LENGTH, Engine.get_version_info()["string"]])
	print("# %d chains each, %d repeats, each chain posed (a curl that changes per repeat) then solved once, the two sets one after the other in every repeat; microseconds per chain per solve (median [p10, p90]); worst joint off the curve's baked points after the last repeat" % [CHAINS, REPEATS])
	Timing.print_table_head("| N | PathChain2D us | GDScript loop us | GDScript / PathChain2D | PathChain2D worst px | GDScript worst px |")
	for n in [4, 8, 16, 32]:
		var both := measure(n)
		var native: Dictionary = both[0]
		var script: Dictionary = both[1]
		print("| %d | %s | %s | %.2fx | %.4f | %.4f |" % [n, Timing.fmt_time(native), Timing.fmt_time(script),
			script["median"] / native["median"], native["error"], script["error"]])
	print("REACH2D_DONE")
	quit(0)


## The fit PathChain2D does (fit mode, no run-in, no limits), as a user would write it in GDScript: the curve's baked
## points placed in global space once (PathChain2D too samples only when the curve changes), then per bone, root to
## tip, the first meeting of its circle with the polyline from where the previous joint met it (the same quadratic),
## and the local rotation that puts its child joint there, its parent's global transform carried along (never read
## back from the engine).
class GdFit:
	var bones: Array
	var points := PackedVector2Array()
	## Each bone's length and its child joint's direction in its own space (the next bone's position, or the tip's
	## end along its bone angle).
	var lengths := PackedFloat64Array()
	var child_angles := PackedFloat64Array()

	func _init(chain: Array, path: Path2D) -> void:
		bones = chain
		for p in path.curve.get_baked_points():
			points.append(path.to_global(p))
		for i in bones.size():
			var child: Vector2 = bones[i + 1].position if i + 1 < bones.size() else Vector2.from_angle(bones[i].get_bone_angle()) * bones[i].get_length()
			lengths.append(child.length())
			child_angles.append(child.angle())

	func solve() -> void:
		var parent: Transform2D = bones[0].get_parent().global_transform
		var origin: Vector2 = parent * bones[0].position
		var segment := 0
		var t := 0.0
		var last := points.size() - 2
		for i in bones.size():
			var bone: Bone2D = bones[i]
			var r := lengths[i]
			var joint := origin
			while true:
				var a := points[segment]
				var d := points[segment + 1] - a
				var p := a - origin
				var qa := d.dot(d)
				var qb := p.dot(d)
				var disc := qb * qb - qa * (p.dot(p) - r * r)
				if qa > 0.0 and disc >= 0.0:
					var exit := (-qb + sqrt(disc)) / qa
					if exit >= t and (segment == last or exit <= 1.0):
						t = exit
						joint = a + d * t
						break
				if segment == last:
					break
				segment += 1
				t = 0.0
			var rotation := (parent.affine_inverse() * joint - bone.position).angle() - child_angles[i]
			bone.rotation = rotation
			parent = parent * Transform2D(rotation, bone.position)
			origin = joint
