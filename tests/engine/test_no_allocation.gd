extends "res://lib/test_case.gd"
## Steady-state solving makes no heap allocation in the extension's Rust code (counted by the debug build's
## allocator): buffers are reused, nodes are cached, nothing is built per frame.


## Allocations made inside the nodes' own per-frame code: reading bones, solving, writing rotations.
func allocations() -> int:
	return ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")


func all_rust_allocations() -> int:
	return ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations")


func test_steady_state_solves_allocate_nothing() -> void:
	await count_steady_state(false)


func test_the_controls_allocate_nothing_per_frame() -> void:
	await count_steady_state(true)


## One node per class solves 60 frames toward moving targets and poles (the spring under gravity, with a stiffness
## curve), and every skeleton flips (scale.x = -1) halfway; the nodes' code must not allocate. With
## `every_control`, the animator controls are on too: solve from rest, a speed limit, tip rotation, stretch.
func count_steady_state(every_control: bool) -> void:
	if not ClassDB.class_exists("Reach2DDebug"):
		expect(false, "the debug build registers Reach2DDebug")
		return
	var lengths := []
	for i in 12:
		lengths.append(20.0)
	var nodes := []
	var targets := []
	var skeletons := []
	for klass in Nodes.ALL:
		var skeleton := make_chain(lengths, [0.2, -0.3, 0.25, -0.2])
		skeletons.append(skeleton)
		var target := make_target(skeleton.global_position + Vector2(80, 60))
		target.rotation = 0.7
		var ik := make_ik(klass, skeleton, target, 0, Nodes.tip_index(klass, lengths.size()), 0)
		ik.set_angle_limits(0, -1.0, 1.0)
		# The animator controls are part of the per-frame path too: a moving pole, a look-at offset.
		if klass == "LookAt2D":
			ik.angle_offset = 0.7
		if Nodes.has_pole(klass):
			var pole := make_target(skeleton.global_position + Vector2(20, -70))
			ik.pole = pole
			targets.append(pole)
		if klass == "SpringChain2D":
			ik.gravity = Vector2(0, 980)
			var curve := Curve.new()
			curve.add_point(Vector2(0, 1))
			curve.add_point(Vector2(1, 0.2))
			ik.stiffness_curve = curve
		elif every_control:
			ik.solve_from_rest = true
			ik.max_angular_speed = 4.0
			if klass != "LookAt2D":
				ik.match_target_rotation = true
				ik.target_rotation_weight = 0.5
			if klass == "TwoBoneIk2D":
				ik.stretch = 0.5
				ik.compress = 0.3
		nodes.append(ik)
		targets.append(target)
	# Warm up: the first solves size the buffers.
	await wait_frames(5)
	# What each node's solve leaves: its bones' rotations and its last_error. The targets move every frame, so every
	# solve changes one of them (a bone held at its angle limit still reports a new error).
	var poses := []
	for i in nodes.size():
		poses.append([rotations_of(bones_of(skeletons[i])), nodes[i].last_error])
	var solved_frames := []
	solved_frames.resize(nodes.size())
	solved_frames.fill(0)
	var baseline := allocations()
	var everything := all_rust_allocations()
	for frame in 60:
		for t in targets:
			t.position += Vector2(cos(frame * 0.3), sin(frame * 0.2)) * 3.0
		if frame == 30:
			for skeleton in skeletons:
				skeleton.scale = Vector2(-1, 1)
		# `process_frame` fires before the frame's callbacks: what changed since the last await is the solve of the
		# targets just moved.
		await get_tree().process_frame
		for i in nodes.size():
			var pose := [rotations_of(bones_of(skeletons[i])), nodes[i].last_error]
			if pose != poses[i] and is_finite(nodes[i].last_error):
				solved_frames[i] += 1
			poses[i] = pose
	var used := allocations() - baseline
	var which := "with every control on" if every_control else "solving"
	expect(used == 0, "60 frames of %d nodes %s made %d heap allocations in the nodes' code" % [nodes.size(), which, used])
	# For the record: what the godot-rust call layer around the callbacks allocated (debug build, strict safeguards).
	print("godot-rust call layer, debug build, %s: %.1f allocations per node per frame" % [which, (all_rust_allocations() - everything) / (60.0 * nodes.size())])
	expect(nodes.size() == Nodes.ALL.size(), "one node per class (%d)" % nodes.size())
	for i in nodes.size():
		var ik: Node2D = nodes[i]
		expect(solved_frames[i] == 60, "%s %s solved in every one of the 60 frames: its bones or its last_error changed (%d)" % [ik.get_class(), which, solved_frames[i]])
		expect(ik.last_error >= 0.0, "%s reports its last solve (error %f)" % [ik.get_class(), ik.last_error])


func test_reading_and_setting_properties_allocates_nothing_in_the_nodes() -> void:
	# Godot asks the node's _get/_set about every property access; those must not allocate either.
	var skeleton := make_chain([30.0, 30.0])
	var target := make_target(Vector2(420, 330))
	var ik := make_ik("FabrikChain2D", skeleton, target)
	ik.set_angle_limits(1, -0.5, 0.5)
	var x = ik.last_error
	ik.weight = 0.9
	var before := all_rust_allocations()
	var in_nodes := allocations()
	for i in 20:
		x = ik.last_error
		ik.weight = 0.5 + 0.01 * i
		x = ik.get("angle_limits/bone_1/max_angle")
	var per_access := (all_rust_allocations() - before) / 60.0
	print("godot-rust call layer, debug build: %.1f allocations per property access" % per_access)
	expect(allocations() == in_nodes, "60 property accesses made %d heap allocations in the nodes' _get/_set" % (allocations() - in_nodes))
	expect_near(ik.get("angle_limits/bone_1/max_angle"), 0.5, 1e-6, "limit property readable")
