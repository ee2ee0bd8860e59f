extends Node
## A seeded scene fuzzer: for N frames it randomly adds, frees, re-parents, rescales and animates bones, skeletons,
## targets and nodes of every class, and assigns random (often invalid) property values and method
## arguments, the way a buggy game script would. Every frame it checks that no bone holds a NaN and no panic was
## logged; every QUIET_EVERY frames it stops changing things and checks that a steady scene, however broken,
## prints nothing more (no message repeats every frame).
##
## Used by tests/robustness/test_scene_fuzz.gd (short seeds, in CI) and tests/soak/scene_fuzz.gd (long runs).
const ErrorLog := preload("res://lib/error_log.gd")

const Rig := preload("res://lib/rig.gd")
const Nodes := preload("res://lib/node_classes.gd")
const MAX_BONES := 160
const MAX_NODES := 40
const QUIET_EVERY := 60
const QUIET_FRAMES := 6

var rng := RandomNumberGenerator.new()
var logger: ErrorLog
var skeletons: Array[Node2D] = []
var targets: Array[Node2D] = []
var iks: Array[Node2D] = []
## Nodes of the wrong class that get assigned to node slots through set().
var junk: Array[Node] = []
var failures: PackedStringArray = []
## What the run did, so a caller can prove it did work: `skeletons_added` and `nodes_added` (built),
## `solve_calls` (op 10), `solves_ok` (of those, solve() returned true) and `solves_moved` (of those, a bone turned),
## `frames_moved` (frames in which a node turned a bone by itself: process modes, springs).
var stats := {"frames": 0, "ops": 0, "messages": 0, "quiet_checks": 0, "bones_checked": 0, "max_bones": 0, "max_nodes": 0,
	"skeletons_added": 0, "nodes_added": 0, "solve_calls": 0, "solves_ok": 0, "solves_moved": 0, "frames_moved": 0}


func _enter_tree() -> void:
	logger = ErrorLog.new()
	OS.add_logger(logger)


func _exit_tree() -> void:
	OS.remove_logger(logger)


## Runs `frames` frames with `seed`; returns the failures (empty when every invariant held).
func run(seed: int, frames: int) -> PackedStringArray:
	rng.seed = seed
	junk = [Node.new(), Sprite2D.new(), Node3D.new(), Node2D.new()]
	for node in junk:
		add_child(node)
	for i in 3:
		add_skeleton()
		add_target()
	for i in 4:
		add_ik()
	logger.take()
	for frame in frames:
		var before_frame := rotations_of_all()
		var quiet := frame % QUIET_EVERY >= QUIET_EVERY - QUIET_FRAMES
		if not quiet:
			for i in rng.randi_range(1, 3):
				random_op()
				stats["ops"] += 1
		var settled := quiet and frame % QUIET_EVERY >= QUIET_EVERY - QUIET_FRAMES + 2
		if quiet and not settled:
			# Two frames (physics ones included) to let new problems be reported once; then nothing more may be
			# printed while the scene stays as it is.
			await get_tree().physics_frame
		await get_tree().process_frame
		stats["frames"] += 1
		if quiet and rotations_of_all() != before_frame:
			# Nothing the fuzzer did turned these bones: the nodes solved on their own.
			stats["frames_moved"] += 1
		check_frame(seed, frame)
		if settled:
			await get_tree().physics_frame
			var repeated := logger.take()
			stats["quiet_checks"] += 1
			if not repeated.is_empty():
				fail(seed, frame, "a steady scene printed %d message(s), first: %s" % [repeated.size(), repeated[0]])
		else:
			stats["messages"] += logger.take().size()
		if failures.size() > 20:
			break
	for node in join([iks, targets, skeletons, junk]):
		if is_instance_valid(node):
			node.free()
	iks.clear()
	targets.clear()
	skeletons.clear()
	return failures


func fail(seed: int, frame: int, what: String) -> void:
	failures.append("seed %d frame %d: %s" % [seed, frame, what])


func check_frame(seed: int, frame: int) -> void:
	for p in logger.take_panics():
		fail(seed, frame, "panic: %s" % p.substr(0, 300))
	var count := 0
	for bone in all_bones():
		count += 1
		var placed := bone.global_position.is_finite() if bone.is_inside_tree() else bone.transform.is_finite()
		if not is_finite(bone.rotation) or not placed:
			fail(seed, frame, "bone %s holds %s / %s" % [bone.get_path(), bone.rotation, bone.global_position])
	stats["bones_checked"] += count
	stats["max_bones"] = maxi(stats["max_bones"], count)
	iks = iks.filter(func(n): return is_instance_valid(n))
	stats["max_nodes"] = maxi(stats["max_nodes"], iks.size())


## Every bone's rotation, in all_bones() order: compared before and after, it shows whether a node turned a bone.
func rotations_of_all() -> PackedFloat32Array:
	var out := PackedFloat32Array()
	for bone in all_bones():
		out.append(bone.rotation)
	return out


func all_bones() -> Array[Bone2D]:
	var out: Array[Bone2D] = []
	skeletons = skeletons.filter(func(n): return is_instance_valid(n))
	for skeleton in skeletons:
		collect_bones(skeleton, out)
	return out


func collect_bones(node: Node, out: Array[Bone2D]) -> void:
	for child in node.get_children():
		if child is Bone2D:
			out.append(child)
		collect_bones(child, out)


## The arrays' elements in one untyped array (typed arrays of different types do not add up).
func join(arrays: Array) -> Array:
	var out := []
	for a in arrays:
		out.append_array(a)
	return out


func pick(array: Array) -> Variant:
	return array[rng.randi_range(0, array.size() - 1)] if array.size() > 0 else null


func random_scale() -> Vector2:
	return pick([Vector2.ONE, Vector2.ONE, Vector2.ONE, Vector2(-1, 1), Vector2(1, -1), Vector2(-1, -1), Vector2(2, 2), Vector2(0.5, 1.5), Vector2.ZERO, Vector2(1e-6, 1e-6), Vector2(0, 1)])


func add_skeleton() -> void:
	if all_bones().size() > MAX_BONES:
		return
	var skeleton := Skeleton2D.new()
	skeleton.position = Vector2(rng.randf_range(100, 700), rng.randf_range(100, 500))
	skeleton.scale = random_scale() if rng.randf() < 0.3 else Vector2(pick([1.0, -1.0]), 1.0)
	add_child(skeleton)
	skeletons.append(skeleton)
	stats["skeletons_added"] += 1
	var parent: Node = skeleton
	var length := 0.0
	for i in rng.randi_range(1, 8):
		var at := Vector2(length, 0)
		length = pick([0.0, rng.randf_range(5, 60), rng.randf_range(5, 60), rng.randf_range(5, 60)])
		var bone := Rig.bone(parent, "bone_%d" % i, at, length, rng.randf_range(-0.5, 0.5), rng.randf_range(-1.5, 1.5))
		if rng.randf() < 0.1:
			bone.scale = random_scale()
		parent = bone


func add_target() -> void:
	var target := Node2D.new()
	target.position = Vector2(rng.randf_range(0, 800), rng.randf_range(0, 600))
	add_child(target)
	targets.append(target)


func random_bone() -> Variant:
	return pick(all_bones())


func add_ik() -> void:
	if iks.size() >= MAX_NODES:
		return
	var ik: Node2D = ClassDB.instantiate(pick(Nodes.ALL))
	ik.update_mode = pick([0, 0, 0, 1, 2])
	if Nodes.has_target(ik.get_class()):
		ik.target = pick(targets)
	var root = random_bone()
	if Nodes.single_bone(ik.get_class()):
		ik.bone = root
	else:
		ik.root_bone = root
		# Mostly a descendant of the root (a valid chain), sometimes any bone.
		var tip = root
		if root != null and rng.randf() < 0.8:
			for i in rng.randi_range(0, 4):
				var next := first_bone_child(tip)
				if next == null:
					break
				tip = next
		else:
			tip = random_bone()
		ik.tip_bone = tip
	var parent: Node = pick(join([skeletons, [self]])) if rng.randf() < 0.3 else self
	parent.add_child(ik)
	iks.append(ik)
	stats["nodes_added"] += 1


func first_bone_child(node: Node) -> Bone2D:
	for child in node.get_children():
		if child is Bone2D:
			return child
	return null


## Values a script might assign to each property, valid and invalid alike.
func random_value(property: String) -> Variant:
	match property:
		"weight":
			return pick([1.0, 0.5, 0.0, -1.0, 2.0, NAN, INF, 1e30])
		"tolerance":
			return pick([0.5, 0.0, 2.0, -1.0, NAN, INF, -INF, 1e30])
		"max_iterations":
			return pick([16, 1, 0, 64, -1, -2147483648, 2147483647, 1099511627776])
		"max_angle_step":
			return pick([0.0, 0.2, 1.0, -1.0, NAN, INF])
		"softness":
			return pick([0.0, 5.0, 30.0, -1.0, NAN, INF])
		"update_mode":
			return pick([0, 1, 2, 0, 7, -1, 3, 2147483647])
		"stiffness", "damping", "teleport_distance":
			return pick([200.0, 12.0, 0.0, -5.0, NAN, INF, 1e30])
		"gravity", "external_force":
			return pick([Vector2.ZERO, Vector2(0, 980), Vector2(-300, 0), Vector2(NAN, 0), Vector2(0, INF)])
		"enabled", "editor_preview", "flip_bend":
			return rng.randf() < 0.7
		"target":
			return pick(join([targets, [null], junk]))
		"root_bone", "tip_bone", "bone":
			return pick(join([all_bones(), [null], junk]))
	return null


func properties_of(ik: Node2D) -> Array:
	var common := ["weight", "update_mode", "enabled", "editor_preview"]
	if Nodes.has_target(ik.get_class()):
		common.append("target")
	match ik.get_class():
		"FabrikChain2D":
			return common + ["tolerance", "max_iterations", "root_bone", "tip_bone"]
		"CcdChain2D":
			return common + ["tolerance", "max_iterations", "max_angle_step", "root_bone", "tip_bone"]
		"TwoBoneIk2D":
			return common + ["softness", "flip_bend", "root_bone", "tip_bone"]
		"SpringChain2D":
			return common + ["stiffness", "damping", "gravity", "external_force", "max_angle_step", "teleport_distance", "root_bone", "tip_bone"]
	return common + ["bone"]


func random_op() -> void:
	var live_iks := iks.filter(func(n): return is_instance_valid(n))
	var op := rng.randi_range(0, 17)
	match op:
		0:
			add_skeleton()
		1:
			var bone = random_bone()
			if bone != null:
				if rng.randf() < 0.5:
					bone.free()
				else:
					bone.queue_free()
		2:
			var bone = random_bone()
			var new_parent = pick(join([all_bones(), skeletons, [self]]))
			if bone != null and new_parent != null and new_parent != bone and not bone.is_ancestor_of(new_parent):
				bone.reparent(new_parent, false)
		3, 4:
			add_ik()
		5, 6, 7:
			var ik = pick(live_iks)
			if ik != null:
				var property: String = pick(properties_of(ik))
				ik.set(property, random_value(property))
		8:
			var ik = pick(live_iks)
			if ik != null:
				if rng.randf() < 0.5:
					ik.free()
				else:
					ik.queue_free()
		9:
			if rng.randf() < 0.5:
				add_target()
			else:
				var target = pick(targets)
				if target != null:
					targets.erase(target)
					target.free()
		10:
			var ik = pick(live_iks)
			if ik != null:
				var before := rotations_of_all()
				stats["solve_calls"] += 1
				if ik.solve():
					stats["solves_ok"] += 1
				if rotations_of_all() != before:
					stats["solves_moved"] += 1
		11:
			var ik = pick(live_iks)
			if ik != null:
				var index: int = pick([0, 1, 2, -1, 512, 2147483647, 1099511627776])
				var lo: float = pick([-0.5, -1.0, NAN, -INF, -1e30])
				var hi: float = pick([0.5, 1.0, NAN, INF, 1e30, -2.0])
				if rng.randf() < 0.7:
					ik.set_angle_limits(index, lo, hi)
				else:
					ik.clear_angle_limits(index)
		12:
			var node = pick(join([all_bones(), skeletons]))
			if node != null:
				node.scale = random_scale()
		13:
			# Animation: bones keep being posed by someone else, targets keep moving.
			for bone in all_bones():
				if rng.randf() < 0.2:
					bone.rotation += rng.randf_range(-0.3, 0.3)
			for target in targets:
				if is_instance_valid(target):
					target.position += Vector2(rng.randf_range(-20, 20), rng.randf_range(-20, 20))
		# Structure attacks (issue 19): silence the watch a node keeps on its tip, so the next re-parent or free of a
		# bone (ops 1 and 2) goes unheard.
		14:
			var bone = random_bone()
			if bone != null:
				bone.set_block_signals(rng.randf() < 0.7)
		15:
			var bone = random_bone()
			if bone != null:
				for connection in bone.get_signal_connection_list("tree_entered"):
					bone.disconnect("tree_entered", connection["callable"])
		16:
			# A skeleton out of the tree, or back in.
			var skeleton = pick(skeletons)
			if skeleton != null:
				if skeleton.is_inside_tree():
					remove_child(skeleton)
				else:
					add_child(skeleton)
		17:
			# Values of the wrong type, through set() (a direct call of the wrong type is a script error by design:
			# tests/README.md).
			var ik = pick(live_iks)
			if ik != null:
				ik.set(pick(properties_of(ik)), pick(["abc", Vector2.ONE, null, 1.5, 7, [], Node2D]))
