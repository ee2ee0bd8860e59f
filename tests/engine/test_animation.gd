extends "res://lib/test_case.gd"
## IK layers on top of animation: in the same frame it runs after AnimationPlayer has posed the bones (even when
## the player comes later in the tree), and `weight` blends the animated and the solved pose.

const ANIMATED := [0.5, -0.4, 0.3]


## A 3-bone chain whose player turns every bone from ANIMATED by +0.6 rad over a looping second, and a FabrikChain2D
## in process mode on it; the player comes before the IK node in the tree or after it.
func make_animated_chain(player_first: bool) -> Dictionary:
	var skeleton := make_chain([40.0, 30.0, 20.0], ANIMATED)
	skeleton.name = "Skeleton%d" % get_child_count()  # each player animates its own skeleton
	var target := make_target(skeleton.global_position + Vector2(30, 50))
	var ik: Node2D
	var player := Animations.turning_chain("pose", skeleton.name, ANIMATED, 0.6)
	if player_first:
		add_child(player)
		ik = make_ik("FabrikChain2D", skeleton, target, 0, -1, 0)
	else:
		ik = make_ik("FabrikChain2D", skeleton, target, 0, -1, 0)
		add_child(player)  # later in the tree: would run after the IK without the node's process priority
	player.play("pose")
	return {"skeleton": skeleton, "bones": bones_of(skeleton), "target": target, "ik": ik, "player": player}


func test_ik_runs_after_animation_in_the_same_frame() -> void:
	for player_first in [true, false]:
		var case := make_animated_chain(player_first)
		await wait_frames(5)
		var ik: Node2D = case["ik"]
		var bones: Array = case["bones"]
		expect(not is_equal_approx(bones[0].rotation, animated_value(case, 0)), "the IK changed the animated pose")
		var label := "player %s the IK node" % ("before" if player_first else "after")
		expect(ik.last_error >= 0.0 and ik.last_error <= ik.tolerance, "%s: IK solved (last_error %s)" % [label, ik.last_error])
		expect_vec_near(bone_end(bones[-1]), case["target"].global_position, ik.tolerance + 1e-3, "%s: the visible pose is the IK pose" % label)
		free_case(case, ["skeleton", "target", "ik", "player"])


## What the animation sets bone `i` to at the player's current position.
func animated_value(case: Dictionary, i: int) -> float:
	var player: AnimationPlayer = case["player"]
	var animation := player.get_animation("pose")
	return animation.value_track_interpolate(i, player.current_animation_position)


func test_weight_blends_animation_and_ik() -> void:
	# Two identical animated chains in the same frames, one fully solved and one at weight 0.5.
	var full := make_animated_chain(false)
	var half := make_animated_chain(false)
	half["ik"].weight = 0.5
	var worst := 0.0
	# How far the full solve takes the bones from the animation: with no IK the half blend would be the animation.
	var solved_apart := 0.0
	for frame in 8:
		await get_tree().process_frame
		for i in ANIMATED.size():
			var expected := lerp_angle(animated_value(half, i), full["bones"][i].rotation, 0.5)
			worst = maxf(worst, absf(angle_difference(half["bones"][i].rotation, expected)))
			solved_apart = maxf(solved_apart, absf(angle_difference(animated_value(full, i), full["bones"][i].rotation)))
	expect(solved_apart > 0.05, "the IK turns the bones away from the animation (up to %s rad)" % solved_apart)
	expect(worst < 1e-3, "every frame each bone is halfway between animation and IK (worst %s rad)" % worst)
	print("weight 0.5 over animation: worst deviation from lerp_angle(animated, solved, 0.5) %s rad" % worst)
	for case in [full, half]:
		free_case(case, ["skeleton", "target", "ik", "player"])
