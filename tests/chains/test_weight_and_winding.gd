extends "res://lib/test_case.gd"
## `weight` is a blend with the pose the node did not make, every frame, with or without an animation; and written
## rotations stay within half a turn of that pose, however long a target circles.
##
## Before: with nothing else posing the bones, `weight = 0.5` crept to the full IK (each frame blended from the
## node's own last output: the tip error halved every frame), a 0 -> 1 ramp over 60 frames reached full IK by frame
## 20, and a CcdChain2D chasing a circling target wound a bone's rotation up to 6.8 turns.

const LENGTHS := [40.0, 32.0, 26.0]
## The scene pose: bent, so that a blend with it is far from the solved pose.
const DRAWN := [0.5, -0.7, 0.6]
## What make_drawn_case adds to the scene, in the order it is freed.
const CASE_NODES := ["skeleton", "target", "ik"]


## A 3-bone chain (LENGTHS, DRAWN, bone angles 0) for `klass`, mirrored with skeleton scale.x = -1 when asked, and a
## node on it in `mode` toward a target out of the drawn pose's reach of the tip. Returns its parts.
func make_drawn_case(klass: String, mirrored: bool, mode: int) -> Dictionary:
	var skeleton := make_chain(LENGTHS, DRAWN, Vector2(-1, 1) if mirrored else Vector2.ONE)
	var bones := bones_of(skeleton)
	var sign := -1.0 if mirrored else 1.0
	var target := make_target(bones[0].global_position + Vector2(sign * 20.0, 55.0))
	var ik := make_ik(klass, skeleton, target, 0, Nodes.tip_index(klass, bones.size()), mode)
	var driven: Array = bones.slice(0, Nodes.tip_index(klass, bones.size()) + 1)
	return {"skeleton": skeleton, "bones": driven, "target": target, "ik": ik}


## The full solve from the scene pose: a weight-1 node's first solve.
func full_solve(klass: String, mirrored: bool) -> PackedFloat32Array:
	var case := make_drawn_case(klass, mirrored, 2)
	case["ik"].solve()
	var out := rotations_of(case["bones"])
	free_case(case, CASE_NODES)
	return out


func test_half_weight_stays_half_every_frame() -> void:
	for klass in Nodes.with_target():
		for mirrored in [false, true]:
			var full := full_solve(klass, mirrored)
			var case := make_drawn_case(klass, mirrored, 0)
			var drawn := rotations_of(case["bones"])
			expect(largest_rotation_difference(drawn, full) > 0.05, "%s: the full solve turns the bones, so half of it can be told apart" % klass)
			case["ik"].weight = 0.5
			var worst := 0.0
			for frame in 30:
				await get_tree().process_frame
				var out := rotations_of(case["bones"])
				for b in out.size():
					worst = maxf(worst, absf(angle_difference(out[b], lerp_angle(drawn[b], full[b], 0.5))))
			expect(worst < 1e-3, "%s%s: weight 0.5 is half the IK on every one of 30 frames (worst %.5f rad from lerp_angle(drawn, solved, 0.5))" % [klass, " mirrored" if mirrored else "", worst])
			print("%s%s weight 0.5 over 30 frames: worst %.6f rad from the half blend" % [klass, " mirrored" if mirrored else "", worst])
			free_case(case, CASE_NODES)


func test_weight_ramp_follows_the_weight() -> void:
	for klass in Nodes.with_target():
		var full := full_solve(klass, false)
		var case := make_drawn_case(klass, false, 0)
		var drawn := rotations_of(case["bones"])
		var worst := 0.0
		for frame in 61:
			var weight := frame / 60.0
			case["ik"].weight = weight
			await get_tree().process_frame
			if weight == 1.0:
				continue  # full weight solves from the node's own last result (a chain has many solutions)

			var out := rotations_of(case["bones"])
			for b in out.size():
				worst = maxf(worst, absf(angle_difference(out[b], lerp_angle(drawn[b], full[b], weight))))
		expect(worst < 1e-3, "%s: a 0 -> 1 weight ramp over 60 frames blends by the weight of each frame below 1 (worst %.5f rad)" % [klass, worst])
		await wait_frames(10)
		var tolerance: float = case["ik"].tolerance if "tolerance" in case["ik"] else 1e-3
		expect(case["ik"].last_error <= tolerance, "%s: at full weight it reaches (%.4f)" % [klass, case["ik"].last_error])
		print("%s weight ramp: worst %.6f rad from lerp_angle(drawn, solved, weight)" % [klass, worst])
		free_case(case, CASE_NODES)


## An animation posing the bones every frame: the blend is with the animated pose, as before.
func test_half_weight_over_an_animation_blends_with_it() -> void:
	for klass in Nodes.with_target():
		var case := make_drawn_case(klass, false, 0)
		var bones: Array = case["bones"]
		case["ik"].weight = 0.5
		var worst := 0.0
		for frame in 20:
			var animated := PackedFloat32Array()
			for b in bones.size():
				animated.append(DRAWN[b] + 0.3 * sin(frame * 0.2 + b))
				bones[b].rotation = animated[b]
			# The full solve from this animated pose, on a twin rig.
			var twin := make_drawn_case(klass, false, 2)
			for b in bones.size():
				twin["bones"][b].rotation = animated[b]
			twin["ik"].solve()
			var full := rotations_of(twin["bones"])
			free_case(twin, CASE_NODES)
			await get_tree().process_frame
			var out := rotations_of(bones)
			for b in out.size():
				worst = maxf(worst, absf(angle_difference(out[b], lerp_angle(animated[b], full[b], 0.5))))
		expect(worst < 1e-3, "%s: weight 0.5 over an animation is half way from the animated to the solved pose (worst %.5f rad)" % [klass, worst])
		free_case(case, CASE_NODES)


## A CcdChain2D arm without limits chasing a target that circles its root for 600 frames: every written rotation
## stays within half a turn of the scene pose (it wound to 6.8 turns before), and the pose still reaches.
func test_rotations_stay_within_half_a_turn() -> void:
	for klass in Nodes.with_target():
		for mirrored in [false, true]:
			var case := make_drawn_case(klass, mirrored, 0)
			var bones: Array = case["bones"]
			var drawn := rotations_of(bones)
			var center: Vector2 = bones[0].global_position
			var reach := 0.0
			for b in bones.size():
				reach += LENGTHS[b]
			var farthest := 0.0
			for frame in 600:
				var angle := frame * TAU / 120.0 * (-1.0 if mirrored else 1.0)
				case["target"].global_position = center + Vector2.from_angle(angle) * reach * 0.7
				await get_tree().process_frame
				for b in bones.size():
					farthest = maxf(farthest, absf(bones[b].rotation - drawn[b]))
			var label := "%s%s" % [klass, " mirrored" if mirrored else ""]
			expect(farthest <= PI + 1e-4, "%s: over 5 circles every rotation stays within PI of the scene pose (farthest %.3f rad)" % [label, farthest])
			print("%s: 5 circles, farthest rotation %.3f rad from the scene pose" % [label, farthest])
			free_case(case, CASE_NODES)
