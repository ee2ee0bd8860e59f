extends "res://lib/test_case.gd"
## Baking IK into animation keys (addons/reach2d/editor/bake.gd): the baked animation, replayed with the IK node
## disabled, gives the IK pose at every key; rotation keys never jump by more than PI; baking into a copy leaves the
## original untouched. The rig is a small character: an animated torso (bone_angle != 0) carrying a 3-bone arm with
## bone angles, a target the animation moves, and a head that looks at a target orbiting it twice.

const Bake := preload("res://addons/reach2d/editor/bake.gd")
const STEP := 1.0 / 20.0


## The character under this test node, after one frame in the tree; `flipped` mirrors it (root scale.x = -1). Returns
## its parts by name.
func make_waving_character(ik_class: String, flipped: bool) -> Dictionary:
	var character := Node2D.new()
	character.name = "Character%d" % get_child_count()
	character.position = Vector2(400, 300)
	character.scale = Vector2(-1, 1) if flipped else Vector2.ONE
	add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	character.add_child(skeleton)
	var torso := Rig.bone(skeleton, "torso", Vector2.ZERO, 60.0, -PI / 2, 0.1)
	var upper := Rig.bone(torso, "upper", Vector2(0, -55), 40.0, 0.35, 0.4)
	var lower := Rig.bone(upper, "lower", Vector2.from_angle(0.35) * 40.0, 35.0, -0.2, -0.5)
	var hand := Rig.bone(lower, "hand", Vector2.from_angle(-0.2) * 35.0, 15.0, 0.1, 0.2)
	var head := Rig.bone(torso, "head", Vector2(0, -62), 20.0, -PI / 2, 0.0)
	var target := Node2D.new()
	target.name = "HandTarget"
	character.add_child(target)
	var gaze := Node2D.new()
	gaze.name = "Gaze"
	character.add_child(gaze)
	var arm: Node2D = ClassDB.instantiate(ik_class)
	arm.name = "Arm"
	arm.target = target
	arm.root_bone = upper
	arm.tip_bone = lower if ik_class == "TwoBoneIk2D" else hand
	character.add_child(arm)
	var look: Node2D = ClassDB.instantiate("LookAt2D")
	look.name = "Look"
	look.target = gaze
	look.bone = head
	character.add_child(look)

	# The animation: the torso sways, the hand target circles in front of the shoulder, the gaze orbits the head
	# twice (the head turns through 4 PI: its raw rotation wraps at +-PI four times).
	var animation := Animation.new()
	animation.length = 2.0
	animation.step = STEP
	var sway := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(sway, "Skeleton/torso:rotation")
	var reach := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(reach, "HandTarget:position")
	var orbit := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(orbit, "Gaze:position")
	for i in 17:
		var t := i * 0.125
		animation.track_insert_key(sway, t, 0.1 + 0.25 * sin(t * PI))
		animation.track_insert_key(reach, t, Vector2(0, -55) + Vector2(50, 0).rotated(t * PI) + Vector2(20, 0))
		animation.track_insert_key(orbit, t, Vector2(0, -70) + Vector2(80, 0).rotated(t * TAU))
	var library := AnimationLibrary.new()
	library.add_animation("wave", animation)
	var player := AnimationPlayer.new()
	player.name = "Player"
	character.add_child(player)
	player.add_animation_library("", library)
	var parts := {"character": character, "player": player, "arm": arm, "look": look, "animation": animation,
		"arm_bones": Bake.driven_bones(arm), "head": head}
	await get_tree().process_frame
	return parts


## Every key of every track of `animation`, to compare before and after.
func keys_of(animation: Animation) -> Array:
	var out := [animation.length]
	for track in animation.get_track_count():
		out.append(animation.track_get_path(track))
		for key in animation.track_get_key_count(track):
			out.append([animation.track_get_key_time(track, key), animation.track_get_key_value(track, key)])
	return out


## The IK pose of `bones` at each time of `times`: the original animation, then `ik.solve()`.
func ik_poses(case: Dictionary, ik: Node2D, bones: Array, times: PackedFloat64Array) -> Array:
	var player: AnimationPlayer = case["player"]
	player.assigned_animation = "wave"
	var poses := []
	for t in times:
		player.seek(t, true)
		ik.solve()
		poses.append(rotations_of(bones))
	return poses


func key_times(animation: Animation, path: String) -> PackedFloat64Array:
	var track := animation.find_track(NodePath(path), Animation.TYPE_VALUE)
	var out := PackedFloat64Array()
	for key in animation.track_get_key_count(track):
		out.append(animation.track_get_key_time(track, key))
	return out


## Replays `animation_name` with every IK node disabled: the worst angle between each bone and `poses` at `times`.
func replay_error(case: Dictionary, animation_name: String, bones: Array, times: PackedFloat64Array, poses: Array) -> float:
	case["arm"].enabled = false
	case["look"].enabled = false
	var player: AnimationPlayer = case["player"]
	player.assigned_animation = animation_name
	var worst := 0.0
	for k in times.size():
		player.seek(times[k], true)
		for b in bones.size():
			worst = maxf(worst, absf(angle_difference(bones[b].rotation, poses[k][b])))
	return worst


## The largest step between consecutive keys of each bone's rotation track, and the total travel of `path`.
func largest_jump(animation: Animation, path: String) -> float:
	var track := animation.find_track(NodePath(path), Animation.TYPE_VALUE)
	var worst := 0.0
	for key in range(1, animation.track_get_key_count(track)):
		worst = maxf(worst, absf(animation.track_get_key_value(track, key) - animation.track_get_key_value(track, key - 1)))
	return worst


func test_bake_into_a_copy_replays_the_ik_pose() -> void:
	for ik_class in ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D"]:
		for flipped in [false, true]:
			var label := "%s%s" % [ik_class, " (mirrored)" if flipped else ""]
			var case: Dictionary = await make_waving_character(ik_class, flipped)
			var original: Animation = case["animation"]
			var before := keys_of(original)
			var result := Bake.bake_to_animation(case["arm"], case["player"], &"wave", STEP, &"wave_baked")
			if not expect(result["ok"], "%s: the bake succeeded (%s)" % [label, result]):
				continue
			var player: AnimationPlayer = case["player"]
			var baked := player.get_animation("wave_baked")
			var bones: Array = case["arm_bones"]
			expect(result["bones"] == bones.size() and result["keys"] == 41, "%s: %s keys for %s bones (%s)" % [label, 41, bones.size(), result])
			expect(keys_of(original) == before, "%s: the original animation is untouched" % label)
			expect(baked != original and baked.get_track_count() == original.get_track_count() + bones.size(), "%s: the copy holds the original tracks plus one per bone" % label)
			var times := key_times(baked, "Skeleton/torso/upper:rotation")
			var poses := ik_poses(case, case["arm"], bones, times)
			var worst := replay_error(case, "wave_baked", bones, times, poses)
			expect(worst < 1e-4, "%s: the baked keys replay the IK pose (worst %s rad)" % [label, worst])
			var jump := 0.0
			for path in ["Skeleton/torso/upper:rotation", "Skeleton/torso/upper/lower:rotation"]:
				jump = maxf(jump, largest_jump(baked, path))
			expect(jump <= PI, "%s: no key jumps by more than PI (largest %s)" % [label, jump])
			print("%s: %d keys x %d bones, replay worst %s rad, largest key step %.3f rad" % [label, times.size(), bones.size(), worst, jump])
			case["character"].free()


func test_bake_unwraps_full_turns() -> void:
	# The head turns twice around: raw rotations wrap at +-PI; the baked track keeps turning instead.
	var case: Dictionary = await make_waving_character("FabrikChain2D", false)
	var result := Bake.bake_to_animation(case["look"], case["player"], &"wave", STEP, &"look_baked")
	if not expect(result["ok"], "the bake succeeded (%s)" % [result]):
		return
	var baked: Animation = case["player"].get_animation("look_baked")
	var path := "Skeleton/torso/head:rotation"
	var track := baked.find_track(NodePath(path), Animation.TYPE_VALUE)
	var travel: float = baked.track_get_key_value(track, baked.track_get_key_count(track) - 1) - baked.track_get_key_value(track, 0)
	var jump := largest_jump(baked, path)
	expect(jump < 0.5, "consecutive keys turn a little each, never across the +-PI seam (largest step %s)" % jump)
	# The gaze orbits twice counter-clockwise while the torso sways back: the head turns about 4 PI in all.
	expect(absf(absf(travel) - 2.0 * TAU) < 0.1, "the track turns through two full turns (travel %s rad)" % travel)
	var times := key_times(baked, path)
	var poses := ik_poses(case, case["look"], [case["head"]], times)
	var worst := replay_error(case, "look_baked", [case["head"]], times, poses)
	expect(worst < 1e-4, "the unwrapped keys replay the look-at pose (worst %s rad)" % worst)
	print("look-at bake: travel %.4f rad over %d keys, largest step %.3f rad, replay worst %s rad" % [travel, times.size(), jump, worst])
	case["character"].free()


func test_bake_into_the_same_animation() -> void:
	var case: Dictionary = await make_waving_character("CcdChain2D", true)
	var original: Animation = case["animation"]
	var tracks := original.get_track_count()
	var bones: Array = case["arm_bones"]
	var times := PackedFloat64Array()
	for i in 41:
		times.append(i * STEP)
	# The bake samples in order from the bones' current pose, like a game playing the animation: so does the reference.
	var authored := rotations_of(bones)
	var poses := ik_poses(case, case["arm"], bones, times)
	for b in bones.size():
		bones[b].rotation = authored[b]
	var result := Bake.bake_to_animation(case["arm"], case["player"], &"wave", 0.0)
	if not expect(result["ok"], "the bake succeeded (%s)" % [result]):
		return
	expect(case["player"].get_animation("wave") == original, "the same resource holds the keys")
	expect(original.get_track_count() == tracks + bones.size(), "one rotation track per bone was added (%d tracks)" % original.get_track_count())
	expect(rotations_of(bones) == authored, "the bones are back where they were before the bake (%s, before %s)" % [rotations_of(bones), authored])
	var worst := replay_error(case, "wave", bones, times, poses)
	expect(worst < 1e-4, "the keys replay the IK pose of the original animation (worst %s rad)" % worst)
	# Baking again replaces those tracks' keys rather than adding tracks.
	case["arm"].enabled = true
	result = Bake.bake_to_animation(case["arm"], case["player"], &"wave", STEP * 2.0)
	expect(result["ok"] and result["keys"] == 21, "a second bake at a coarser step (%s)" % [result])
	expect(original.get_track_count() == tracks + bones.size(), "a second bake reuses the tracks (%d tracks)" % original.get_track_count())
	case["character"].free()


func test_bake_refuses_bad_input_and_changes_nothing() -> void:
	var case: Dictionary = await make_waving_character("FabrikChain2D", false)
	var before := keys_of(case["animation"])
	var player: AnimationPlayer = case["player"]
	var list_before := player.get_animation_list()
	expect(not Bake.bake_to_animation(case["arm"], player, &"missing")["ok"], "an unknown animation is refused")
	expect(not Bake.bake_to_animation(case["arm"], player, &"wave", STEP, &"wave")["ok"], "baking over an existing name is refused")
	case["arm"].target = null
	var result := Bake.bake_to_animation(case["arm"], player, &"wave", STEP, &"copy")
	expect(not result["ok"] and "target" in String(result.get("error", "")), "a node that cannot solve is refused with its reason (%s)" % [result])
	expect(keys_of(case["animation"]) == before and player.get_animation_list() == list_before, "nothing changed")
	case["character"].free()


## A stretching TwoBoneIk2D moves its tip bone along the upper bone: the bake keys that position too, so the replay
## reaches as far as the IK did (before: rotations only, and the replay ended 19 px short).
func test_bake_of_a_stretching_limb_replays_its_reach() -> void:
	for flipped in [false, true]:
		var case: Dictionary = await make_waving_character("TwoBoneIk2D", flipped)
		var arm: Node2D = case["arm"]
		arm.stretch = 0.5
		arm.update_mode = 2
		var player: AnimationPlayer = case["player"]
		# The hand target circles up to 105 px out from the shoulder: past the 75 px arm for part of the circle.
		var animation: Animation = case["animation"]
		var reach_track := animation.find_track(NodePath("HandTarget:position"), Animation.TYPE_VALUE)
		for key in animation.track_get_key_count(reach_track):
			var shoulder := Vector2(0, -55)
			animation.track_set_key_value(reach_track, key, shoulder + (animation.track_get_key_value(reach_track, key) - shoulder) * 1.5)
		var lower: Bone2D = case["arm_bones"][1]
		var result := Bake.bake_to_animation(arm, player, &"wave", STEP, &"stretch_baked")
		if not expect(result["ok"], "flipped=%s: the bake succeeds (%s)" % [flipped, result]):
			case["character"].free()
			continue
		var baked: Animation = player.get_animation(&"stretch_baked")
		var times := key_times(baked, "Skeleton/torso/upper:rotation")
		# The IK's own reach at each key time, then the replay's with the IK off.
		var reach := []
		player.assigned_animation = "wave"
		var stretched := 0
		for t in times:
			player.seek(t, true)
			arm.solve()
			reach.append(bone_end(lower))
			stretched += 1 if lower.position.distance_to(lower.rest.origin) > 0.5 else 0
		arm.enabled = false
		player.assigned_animation = "stretch_baked"
		var worst := 0.0
		for k in times.size():
			player.seek(times[k], true)
			worst = maxf(worst, bone_end(lower).distance_to(reach[k]))
		expect(stretched > 0, "flipped=%s: the limb stretched at some keys (%d)" % [flipped, stretched])
		expect(baked.find_track(NodePath("Skeleton/torso/upper/lower:position"), Animation.TYPE_VALUE) >= 0, "flipped=%s: the tip bone's position is keyed" % flipped)
		expect(worst < 0.05, "flipped=%s: the replay's hand is where the IK put it (worst %.4f px over %d keys)" % [flipped, worst, times.size()])
		print("stretch bake flipped=%s: %d keys, %d stretched, replay worst %.5f px" % [flipped, times.size(), stretched, worst])
		case["character"].free()


## A player with an animation assigned but stopped is a normal state: the bake logs nothing (it logged "AnimationPlayer
## has no current animation" before) and leaves the player as it was.
func test_bake_with_a_stopped_player_logs_nothing() -> void:
	var case: Dictionary = await make_waving_character("FabrikChain2D", false)
	var player: AnimationPlayer = case["player"]
	player.play(&"wave")
	player.stop()
	expect(player.assigned_animation == &"wave" and not player.is_playing(), "the animation is assigned and stopped")
	error_log.take()
	var result := Bake.bake_to_animation(case["arm"], player, &"wave", STEP, &"stopped_baked")
	var logged := error_log.take()
	expect(result["ok"], "the bake succeeds (%s)" % [result])
	expect(logged.is_empty(), "nothing is logged")
	expect(player.assigned_animation == &"wave" and not player.is_playing(), "the player is still stopped on its animation")
	case["character"].free()


## Every bad input is one `{ok = false, error}` and changes nothing: NaN, infinite, negative and too small steps,
## a node of another class, a freed node or player, a non-player, a missing animation.
func test_bake_validates_every_input() -> void:
	var case: Dictionary = await make_waving_character("FabrikChain2D", false)
	var player: AnimationPlayer = case["player"]
	var before := keys_of(case["animation"])
	var list_before := player.get_animation_list()
	var freed := Node2D.new()
	freed.free()
	var freed_player := AnimationPlayer.new()
	freed_player.free()
	var sprite := Sprite2D.new()
	var cases := [
		["step NaN", case["arm"], player, &"wave", NAN, "step"],
		["step INF", case["arm"], player, &"wave", INF, "step"],
		["step -INF", case["arm"], player, &"wave", -INF, "step"],
		["step negative", case["arm"], player, &"wave", -0.1, "step"],
		["step tiny", case["arm"], player, &"wave", 1e-7, "larger step"],
		["node of another class", sprite, player, &"wave", STEP, "pick a Reach2D node"],
		["freed node", freed, player, &"wave", STEP, "pick a Reach2D node"],
		["null node", null, player, &"wave", STEP, "pick a Reach2D node"],
		["freed player", case["arm"], freed_player, &"wave", STEP, "AnimationPlayer"],
		["not a player", case["arm"], sprite, &"wave", STEP, "AnimationPlayer"],
		["missing animation", case["arm"], player, &"nope", STEP, "no animation"],
	]
	for c in cases:
		var result := Bake.bake_to_animation(c[1], c[2], c[3], c[4], &"bad_baked")
		expect(not result["ok"] and c[5] in String(result.get("error", "")), "%s: refused with a message naming %s (%s)" % [c[0], c[5], result])
	expect(keys_of(case["animation"]) == before and player.get_animation_list() == list_before, "nothing changed")
	sprite.free()
	case["character"].free()


## A SpringChain2D bakes its secondary motion: at rest on the first sample's pose, advanced by one step there (the
## game's first frame has a frame's time too) and by the time between samples after, so the replay with the spring
## off gives the pose the spring gave.
func test_bake_of_a_spring_replays_its_motion() -> void:
	var case: Dictionary = await make_waving_character("FabrikChain2D", false)
	case["arm"].enabled = false
	var tail: Node2D = ClassDB.instantiate("SpringChain2D")
	tail.root_bone = case["arm_bones"][0]
	tail.tip_bone = case["arm_bones"][-1]
	tail.gravity = Vector2(0, 600)
	tail.update_mode = 2
	case["character"].add_child(tail)
	var player: AnimationPlayer = case["player"]
	var result := Bake.bake_to_animation(tail, player, &"wave", STEP, &"spring_baked")
	if not expect(result["ok"], "the spring bakes (%s)" % [result]):
		case["character"].free()
		return
	var bones: Array = case["arm_bones"]
	var baked: Animation = player.get_animation(&"spring_baked")
	var times := key_times(baked, "Skeleton/torso/upper:rotation")
	# The spring's own run over the same samples.
	player.assigned_animation = "wave"
	var poses := []
	var previous := -STEP
	for t in times:
		player.seek(t, true)
		if t == 0.0:
			tail.reset()
		tail.advance(t - previous)
		previous = t
		poses.append(rotations_of(bones))
	tail.enabled = false
	var moved := 0.0
	for k in range(1, poses.size()):
		moved = maxf(moved, absf(angle_difference(poses[k][0], poses[0][0])))
	player.assigned_animation = "spring_baked"
	var worst := 0.0
	for k in times.size():
		player.seek(times[k], true)
		for b in bones.size():
			worst = maxf(worst, absf(angle_difference(bones[b].rotation, poses[k][b])))
	expect(moved > 0.05, "the spring moved the chain (%.3f rad)" % moved)
	expect(worst < 1e-4, "the replay gives the spring's pose at every key (worst %.6f rad)" % worst)
	print("spring bake: %d keys, moved %.3f rad, replay worst %.7f rad" % [times.size(), moved, worst])
	case["character"].free()
