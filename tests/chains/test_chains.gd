extends "res://lib/test_case.gd"
## FabrikChain2D and CcdChain2D over real Skeleton2D/Bone2D chains: reach, lengths, limits, weight, modes.

const CHAINS := Nodes.CHAINS


func zigzag(n: int) -> Array:
	var angles := []
	for i in n:
		angles.append(0.6 if i % 2 == 0 else -1.1)
	return angles


func test_reaches_targets_and_keeps_lengths_n2_n4_n8() -> void:
	for klass in CHAINS:
		for n in [2, 4, 8]:
			for pose in ["straight", "zigzag"]:
				var lengths := []
				for i in n:
					lengths.append(30.0 + 5.0 * i)
				var skeleton := make_chain(lengths, [] if pose == "straight" else zigzag(n))
				var bones := bones_of(skeleton)
				var root := bones[0].global_position
				var reach := reach_of(bones)
				var target := make_target(root + Vector2(0.45, 0.5).normalized() * reach * 0.6)
				var ik := make_ik(klass, skeleton, target)
				ik.max_iterations = 64
				var before := joints_of(bones)
				var solved: bool = ik.solve()
				var label := "%s N=%d %s" % [klass, n, pose]
				print("%s: error %.4f px in %d iterations" % [label, ik.last_error, ik.last_iterations])
				expect(solved, "%s: solve() returned true" % label)
				expect_vec_near(bone_end(bones[-1]), target.global_position, ik.tolerance + 1e-3, "%s: tip at target" % label)
				expect_near(ik.last_error, bone_end(bones[-1]).distance_to(target.global_position), 1e-3, "%s: last_error" % label)
				expect(ik.last_error <= ik.tolerance, "%s: last_error %s within tolerance" % [label, ik.last_error])
				expect(ik.last_iterations >= 1 and ik.last_iterations <= 64, "%s: iterations %d" % [label, ik.last_iterations])
				expect_vec_near(bones[0].global_position, root, 1e-3, "%s: root did not move" % label)
				expect(worst_length_change(before, joints_of(bones)) < 1e-4, "%s: bone lengths kept" % label)
				expect(all_finite(bones), "%s: all finite" % label)
				for node in [skeleton, target, ik]:
					node.free()


func test_unreachable_target_gives_straight_chain() -> void:
	for klass in CHAINS:
		var skeleton := make_chain([40.0, 40.0, 40.0], zigzag(3))
		var bones := bones_of(skeleton)
		var root := bones[0].global_position
		var target := make_target(root + Vector2(300, -200))
		var ik := make_ik(klass, skeleton, target)
		ik.max_iterations = 64
		ik.solve()
		var direction := (target.global_position - root).normalized()
		for i in bones.size():
			expect_vec_near(bones[i].global_position, root + direction * 40.0 * i, 0.05, "%s: joint %d on the line" % [klass, i])
		expect_vec_near(bone_end(bones[-1]), root + direction * 120.0, 0.05, "%s: tip on the line" % klass)
		var distance := root.distance_to(target.global_position)
		expect_near(ik.last_error, distance - 120.0, 0.05, "%s: last_error = distance - reach" % klass)
		print("%s unreachable: last_error %.4f px, distance - reach %.4f px, %d iterations" % [klass, ik.last_error, distance - 120.0, ik.last_iterations])
		if klass == "FabrikChain2D":
			expect(ik.last_iterations == 1, "FABRIK answers an unreachable target in one pass (got %d)" % ik.last_iterations)


func test_target_at_tip_and_at_root() -> void:
	for klass in CHAINS:
		var skeleton := make_chain([40.0, 30.0, 20.0], zigzag(3))
		var bones := bones_of(skeleton)
		var target := make_target(bone_end(bones[-1]))
		var ik := make_ik(klass, skeleton, target)
		var before := rotations_of(bones)
		expect(ik.solve(), "%s: solve at tip" % klass)
		expect(ik.last_iterations == 0, "%s: tip already at target uses 0 iterations (got %d)" % [klass, ik.last_iterations])
		var after := rotations_of(bones)
		for i in bones.size():
			expect_near(after[i], before[i], 1e-4, "%s: bone %d unchanged when already reached" % [klass, i])
		target.global_position = bones[0].global_position
		expect(ik.solve(), "%s: solve at root" % klass)
		expect(all_finite(bones), "%s: target at the root gives finite bones" % klass)
		expect(is_finite(ik.last_error), "%s: finite last_error" % klass)


func test_weight_blends_input_and_solved_rotations() -> void:
	for klass in CHAINS:
		var solved := []
		for weight in [1.0, 0.0, 0.5]:
			var skeleton := make_chain([40.0, 30.0, 20.0], zigzag(3))
			var bones := bones_of(skeleton)
			var target := make_target(bones[0].global_position + Vector2(20, 50))
			var ik := make_ik(klass, skeleton, target)
			ik.weight = weight
			var input := rotations_of(bones)
			ik.solve()
			var out := rotations_of(bones)
			if weight == 1.0:
				solved = Array(out)
				expect(ik.last_error <= ik.tolerance, "%s: weight 1 reaches" % klass)
			for i in bones.size():
				var expected := lerp_angle(input[i], solved[i], weight)
				expect_near(angle_difference(out[i], expected), 0.0, 1e-4, "%s weight %s bone %d" % [klass, weight, i])
			if weight < 1.0:
				expect_near(ik.last_error, bone_end(bones[-1]).distance_to(target.global_position), 1e-3, "%s: last_error includes weight" % klass)
			for node in [skeleton, target, ik]:
				node.free()


func test_angle_limits_hold() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 1234
	for klass in CHAINS:
		var skeleton := make_chain([40.0, 35.0, 30.0, 25.0], [0.2, 0.3, 0.2, 0.1])
		var bones := bones_of(skeleton)
		var target := make_target(Vector2.ZERO)
		var ik := make_ik(klass, skeleton, target)
		var limits := [Vector2(-0.5, 0.8), Vector2(0.0, 1.2), Vector2(-1.0, 0.0), Vector2(-0.3, 0.3)]
		for i in limits.size():
			ik.set_angle_limits(i, limits[i].x, limits[i].y)
			expect(ik.has_angle_limits(i), "%s: bone %d limited" % [klass, i])
		var worst := 0.0
		var reached := 0
		for trial in 60:
			# A target that a pose inside the limits reaches, or a random point (often out of the limits' reach).
			var goal_pose := []
			for i in bones.size():
				goal_pose.append(rng.randf_range(limits[i].x, limits[i].y))
			var start := rotations_of(bones)
			for i in bones.size():
				bones[i].rotation = goal_pose[i]
			var reachable := trial % 4 != 3
			target.global_position = bone_end(bones[-1]) if reachable else bones[0].global_position + Vector2.from_angle(rng.randf_range(-PI, PI)) * rng.randf_range(10.0, 140.0)
			for i in bones.size():
				bones[i].rotation = start[i]
			ik.weight = 0.5 if trial % 5 == 4 else 1.0
			ik.solve()
			for i in bones.size():
				var r := wrapf(bones[i].rotation, -PI, PI)
				var excess := maxf(limits[i].x - r, r - limits[i].y)
				worst = maxf(worst, excess)
			if reachable and ik.weight == 1.0 and ik.last_error <= ik.tolerance:
				reached += 1
		print("%s: reached %d of the reachable targets with full weight; worst limit excess %s rad" % [klass, reached, worst])
		expect(worst <= 1e-3, "%s: limits held (worst excess %s rad)" % [klass, worst])
		expect(reached >= 20, "%s: still reaches targets inside the limits (%d of 36)" % [klass, reached])
		# A bad index and an inverted range are errors that change nothing.
		ik.set_angle_limits(-1, 0.0, 1.0)
		ik.set_angle_limits(0, 1.0, -1.0)
		expect(ik.has_angle_limits(0), "%s: the existing limit is kept after a bad call" % klass)
		ik.clear_angle_limits(0)
		expect(not ik.has_angle_limits(0), "%s: clear_angle_limits" % klass)


func test_limits_are_inspector_properties() -> void:
	var skeleton := make_chain([40.0, 30.0])
	var target := make_target(Vector2(410, 330))
	var ik := make_ik("FabrikChain2D", skeleton, target)
	ik.solve()
	var names := []
	for p in ik.get_property_list():
		names.append(p["name"])
	expect(names.has("angle_limits/bone_1/enabled"), "the inspector lists bone 1's limit")
	ik.set("angle_limits/bone_1/min_angle", -0.25)
	ik.set("angle_limits/bone_1/max_angle", 0.25)
	ik.set("angle_limits/bone_1/enabled", true)
	expect(ik.has_angle_limits(1), "setting the properties enables the limit")
	expect_near(ik.get("angle_limits/bone_1/max_angle"), 0.25, 1e-6, "property reads back")


func test_update_modes() -> void:
	for klass in CHAINS:
		for mode in [0, 1, 2]:
			var skeleton := make_chain([40.0, 30.0], [0.3, 0.3])
			var bones := bones_of(skeleton)
			var target := make_target(bones[0].global_position + Vector2(10, 45))
			var ik := make_ik(klass, skeleton, target, 0, -1, mode)
			var before := rotations_of(bones)
			await get_tree().process_frame
			await get_tree().physics_frame
			await get_tree().process_frame
			var moved := rotations_of(bones) != before
			var label := "%s mode %d" % [klass, mode]
			if mode == 2:
				expect(not moved, "%s: manual mode does not solve by itself" % label)
				expect(ik.last_error == -1.0, "%s: no solve yet" % label)
				ik.solve()
			else:
				expect(moved, "%s: solved by itself" % label)
			expect(ik.last_error <= ik.tolerance and ik.last_error >= 0.0, "%s: reached (error %s)" % [label, ik.last_error])
			ik.enabled = false
			target.global_position += Vector2(-20, 0)
			var held := rotations_of(bones)
			await get_tree().process_frame
			await get_tree().physics_frame
			expect(rotations_of(bones) == held, "%s: disabled stops automatic updates" % label)
			expect(ik.solve(), "%s: solve() works while disabled" % label)
			for node in [skeleton, target, ik]:
				node.free()
