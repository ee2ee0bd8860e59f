extends "res://lib/test_case.gd"
## Negative scale anywhere (skeleton, ancestor, the bone itself, one axis or both, under rotation) must solve
## exactly like an unmirrored chain, in ONE solve, and a character mirrored with scale.x = -1 must get the mirror
## image of the unmirrored pose.

const CHAINS := Nodes.CHAINS
const SETUPS := MirrorRig.SETUPS


func test_mirrored_chains_reach_in_one_solve() -> void:
	var report := []
	for klass in CHAINS:
		for setup in SETUPS:
			var case := MirrorRig.make(self, setup)
			var bones: Array = case["bones"]
			var goal := MirrorRig.effector_for(bones, [1.0, 0.6, -0.4, 0.9])
			var target := make_target(goal)
			var ik: Node2D = make_ik(klass, case["skeleton"], target)
			ik.max_iterations = 64
			var before := joints_of(bones)
			ik.solve()
			var label := "%s %s" % [klass, setup]
			report.append("%s: error %.5f px in %d iterations" % [label, ik.last_error, ik.last_iterations])
			expect(ik.last_error <= ik.tolerance, "%s: reached in one solve (error %s)" % [label, ik.last_error])
			expect_near(ik.last_error, bone_end(bones[-1]).distance_to(goal), 1e-3, "%s: last_error is the real distance" % label)
			expect(worst_length_change(before, joints_of(bones)) < 1e-4, "%s: lengths kept" % label)
			for b in bones:
				expect(b.scale.is_finite() and b.position.is_finite(), "%s: only rotation written" % label)
			expect(all_finite(bones), "%s: finite" % label)
			for node in [case["character"], target, ik]:
				node.free()
	print("\n".join(report))


func test_two_bone_and_look_at_under_mirroring() -> void:
	for setup in SETUPS:
		var case := MirrorRig.make(self, setup)
		var bones: Array = case["bones"]
		var goal := MirrorRig.effector_for(bones, [0.3, 1.4, bones[2].rotation, bones[3].rotation])
		# Two-bone on bones 1 and 2: aim bone 2's end (its length) at a point it can reach.
		var two_goal: Vector2
		var saved := rotations_of(bones)
		bones[1].rotation = 0.2
		bones[2].rotation = 1.1
		two_goal = bone_end(bones[2])
		for i in bones.size():
			bones[i].rotation = saved[i]
		var target := make_target(two_goal)
		var two: Node2D = make_ik("TwoBoneIk2D", case["skeleton"], target, 1, 2)
		expect(two.solve(), "TwoBoneIk2D %s: solved" % setup)
		expect(two.last_error < 1e-2, "TwoBoneIk2D %s: exact (error %s)" % [setup, two.last_error])
		expect(two.last_iterations == 1, "TwoBoneIk2D %s: one iteration" % setup)
		# LookAt2D on the tip bone.
		var look_target := make_target(bones[3].global_position + Vector2(-37, 81))
		var look: Node2D = make_ik("LookAt2D", case["skeleton"], look_target, 3)
		expect(look.solve(), "LookAt2D %s: solved" % setup)
		var direction: Vector2 = bones[3].global_transform.basis_xform(Vector2.from_angle(bones[3].get_bone_angle()))
		var wanted: Vector2 = look_target.global_position - bones[3].global_position
		expect(absf(direction.angle_to(wanted)) < 1e-3, "LookAt2D %s: points at the target (off by %s rad)" % [setup, direction.angle_to(wanted)])
		expect(look.last_error < 1e-3, "LookAt2D %s: last_error %s" % [setup, look.last_error])
		for node in [case["character"], target, look_target, two, look]:
			node.free()
		var _unused := goal


func test_mirrored_character_gets_the_mirror_image_pose() -> void:
	for klass in CHAINS + ["TwoBoneIk2D"]:
		var a := MirrorRig.make(self, "none")
		var b := MirrorRig.make(self, "none")
		b["character"].scale = Vector2(-1, 1)
		var axis: float = a["character"].global_position.x
		var goal := Vector2(560, 370)
		var ta := make_target(goal)
		var tb := make_target(mirror_point(goal, axis))
		var tip := 3 if klass != "TwoBoneIk2D" else 1
		var ika: Node2D = make_ik(klass, a["skeleton"], ta, 0, tip)
		var ikb: Node2D = make_ik(klass, b["skeleton"], tb, 0, tip)
		var far := bone_end(a["bones"][tip]).distance_to(goal)
		expect(ika.solve() and ikb.solve(), "%s: both characters solve" % klass)
		expect(ika.last_error < far - 10.0 and ikb.last_error < far - 10.0, "%s: both tips came nearer their targets (%s, %s px, from %s)" % [klass, ika.last_error, ikb.last_error, far])
		var ja := joints_of(a["bones"].slice(0, tip + 1))
		var jb := joints_of(b["bones"].slice(0, tip + 1))
		var worst := largest_mirror_distance(ja, jb, axis)
		expect(worst < 1e-2, "%s: the mirrored character's pose is the mirror image (worst %s px)" % [klass, worst])
		print("%s mirror image: worst joint difference %.6f px" % [klass, worst])
		for node in [a["character"], b["character"], ta, tb, ika, ikb]:
			node.free()


func test_two_bone_bend_side_mirrors_with_the_character() -> void:
	for flip in [false, true]:
		for setup in ["none", "skeleton_x", "ancestor_x_rotated", "skeleton_xy"]:
			var case := MirrorRig.make(self, setup)
			var bones: Array = case["bones"]
			var target := make_target(bones[0].global_position)
			var two: Node2D = make_ik("TwoBoneIk2D", case["skeleton"], target, 0, 1)
			two.flip_bend = flip
			# A reachable target, given in the skeleton's frame so it mirrors with the setup.
			var frame: Transform2D = case["skeleton"].global_transform
			target.global_position = frame * Vector2(60, 25)
			two.solve()
			var to_parent := frame.affine_inverse()
			var root: Vector2 = to_parent * bones[0].global_position
			var joint: Vector2 = to_parent * bones[1].global_position
			var t: Vector2 = to_parent * target.global_position
			var side := (t - root).cross(joint - root)
			var wanted := -1.0 if flip else 1.0
			expect(side * wanted > 0.0, "flip_bend=%s %s: bend side in the parent frame (cross %s)" % [flip, setup, side])
			expect(two.last_error < 1e-2, "flip_bend=%s %s: reached (%s)" % [flip, setup, two.last_error])
			for node in [case["character"], target, two]:
				node.free()
