extends "res://lib/test_case.gd"
## TwoBoneIk2D: exact reach, out of reach, too close, and softness easing into the straight limb.


## A TwoBoneIk2D (manual mode, `softness`) on a 60 + 40 px limb (bone angles 0, not mirrored) and its target.
func make_softened_limb(softness := 0.0) -> Dictionary:
	var skeleton := make_chain([60.0, 40.0], [0.4, 0.8])
	var bones := bones_of(skeleton)
	var target := make_target(Vector2.ZERO)
	var ik: Node2D = make_ik("TwoBoneIk2D", skeleton, target, 0, 1)
	ik.softness = softness
	return {"skeleton": skeleton, "bones": bones, "target": target, "ik": ik, "root": bones[0].global_position}


func aim(case: Dictionary, distance: float) -> void:
	case["target"].global_position = case["root"] + Vector2(0.6, 0.8) * distance
	case["ik"].solve()


func test_reach_out_of_reach_and_too_close() -> void:
	var case := make_softened_limb()
	var ik: Node2D = case["ik"]
	for d in [25.0, 50.0, 80.0, 99.9]:
		aim(case, d)
		expect(ik.last_error < 1e-2, "reachable at %s: exact (error %s)" % [d, ik.last_error])
		expect(ik.last_iterations == 1, "one iteration")
	aim(case, 140.0)
	var out_of_reach: float = ik.last_error
	expect_near(out_of_reach, 40.0, 1e-2, "out of reach: straight toward the target, error = distance - reach")
	aim(case, 5.0)
	expect_near(ik.last_error, 15.0, 1e-2, "closer than |upper - lower|: folded, error = 20 - 5")
	print("two-bone: reachable error < 0.01 px; out of reach %.4f px (expected 40); too close %.4f px (expected 15)" % [out_of_reach, ik.last_error])


func test_softness_eases_into_the_straight_limb() -> void:
	var soft := make_softened_limb(20.0)
	var ik: Node2D = soft["ik"]
	aim(soft, 75.0)
	expect(ik.last_error < 1e-2, "below reach - softness: exact (error %s)" % ik.last_error)
	aim(soft, 100.0)
	expect_near(ik.last_error, 5.0, 1e-2, "at full reach the softened limb stays bent by softness/4")
	var joint: Vector2 = soft["bones"][1].global_position
	var root: Vector2 = soft["root"]
	var tip := bone_end(soft["bones"][1])
	expect(absf((joint - root).cross(tip - root)) > 1.0, "the knee is still bent at full reach")
	aim(soft, 130.0)
	expect_near(ik.last_error, 30.0, 1e-2, "beyond reach + softness: straight, error = distance - reach")
	# The error never jumps while the target crosses the reach: no knee pop.
	var last := -1.0
	var worst_step := 0.0
	for i in 81:
		aim(soft, 70.0 + i * 0.5)
		if last >= 0.0:
			worst_step = maxf(worst_step, absf(ik.last_error - last))
		last = ik.last_error
	expect(worst_step < 0.6, "the error changes smoothly (largest step %s px for 0.5 px target steps)" % worst_step)
	print("two-bone softness 20: error 5.0 px at full reach, largest error step %.3f px per 0.5 px of target motion" % worst_step)
