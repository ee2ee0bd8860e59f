extends "res://lib/test_case.gd"
## The order promise (issue 32): a CopyTransform2D runs with the IK nodes after the animation, in tree order (the
## batch), so one placed after a TwoBoneIk2D in the tree reads the pose that node solved in the same frame; one placed
## before reads the animated pose (the IK's solve comes after it). The same holds for Reach2D.solve_all's order.

const FRAMES := 30


## A with_followers character whose arm (Upper..Fore) a TwoBoneIk2D in `mode` solves toward a target to the right of
## the shoulder; the sword's copy placed after the IK node in the tree (`after`) or before it.
func make_case(at: Vector2, after: bool, mode := 0) -> Dictionary:
	var c := Characters.with_followers(self, at, false, mode)
	var bones: Dictionary = c["bones"]
	var target := Node2D.new()
	c["character"].add_child(target)
	target.global_position = bones["upper"].global_position + Vector2(38, 22)
	var ik := TwoBoneIk2D.new()
	ik.update_mode = mode
	ik.root_bone = bones["upper"]
	ik.tip_bone = bones["fore"]
	ik.target = target
	var sword: Node2D = c["copies"]["Sword"]
	c["character"].add_child(ik)
	if after:
		c["character"].move_child(ik, sword.get_index())
	c["ik"] = ik
	c["target"] = target
	return c


## The sword's transform relative to its character, for comparing characters that stand in different places.
static func sword_in_character(c: Dictionary) -> Transform2D:
	return c["character"].global_transform.affine_inverse() * c["bones"]["sword"].global_transform


func test_a_copy_after_the_ik_node_sees_the_solved_pose_in_the_same_frame() -> void:
	var after := make_case(Vector2(200, 300), true)
	var before := make_case(Vector2(500, 300), false)
	# The same animation without IK: where the sword is when it follows the animated hand.
	var animated := Characters.with_followers(self, Vector2(800, 300), false)
	expect(after["ik"].get_index() < after["copies"]["Sword"].get_index(), "after: the IK node comes first in the tree")
	expect(before["ik"].get_index() > before["copies"]["Sword"].get_index(), "before: the copy comes first in the tree")
	var worst_after := 0.0
	var least_before := INF
	var worst_before_vs_animated := 0.0
	for frame in FRAMES:
		await get_tree().process_frame
		if frame < 2:
			continue  # the batcher arrives deferred; from then on it runs everything
		worst_after = maxf(worst_after, copy_error(after["copies"]["Sword"])[0])
		least_before = minf(least_before, copy_error(before["copies"]["Sword"])[0])
		var a := sword_in_character(before)
		var b := sword_in_character(animated)
		worst_before_vs_animated = maxf(worst_before_vs_animated, a.origin.distance_to(b.origin) + absf(a.x.angle_to(b.x)))
	expect(after["ik"].last_error < 1e-3, "the arm reaches its target (last_error %s)" % after["ik"].last_error)
	expect(worst_after < 1e-5, "after the IK node: the sword follows the solved hand every frame (worst %s rad)" % worst_after)
	expect(least_before > 1e-2, "before the IK node: the sword does not follow the solved hand (closest %s rad)" % least_before)
	expect(worst_before_vs_animated < 1e-3, "before the IK node: the sword follows the animated hand (worst %s)" % worst_before_vs_animated)
	print("order: copy after TwoBoneIk2D follows the solved hand within %.8f rad; before it, follows the animated hand within %.6f (and misses the solved one by at least %.3f rad)" % [worst_after, worst_before_vs_animated, least_before])
	for c in [after, before, animated]:
		c["character"].free()


func test_solve_all_runs_in_the_array_s_order() -> void:
	var c := make_case(Vector2(300, 300), true, 2)
	var ik: TwoBoneIk2D = c["ik"]
	var sword: Node2D = c["copies"]["Sword"]
	c["player"].callback_mode_process = AnimationMixer.ANIMATION_CALLBACK_MODE_PROCESS_MANUAL
	c["player"].advance(0.3)
	expect(Reach2D.solve_all([sword, ik]) == 2, "copy then IK: both solved")
	expect(copy_error(sword)[0] > 1e-2, "copy then IK: the sword read the hand before the IK moved it")
	c["player"].advance(0.3)
	expect(Reach2D.solve_all([ik, sword]) == 2, "IK then copy: both solved")
	expect(copy_error(sword)[0] < 1e-5, "IK then copy: the sword reads the solved hand (%s rad)" % copy_error(sword)[0])
	c["character"].free()
