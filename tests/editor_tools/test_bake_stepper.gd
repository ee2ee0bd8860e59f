extends "res://lib/test_case.gd"
## Baking a stepping creature (addons/reach2d/editor/bake.gd with LegStepper2D, issue 33): a six-legged creature
## (four TwoBoneIk2D legs, a FabrikChain2D and a CcdChain2D leg) whose root an AnimationPlayer walks over a bump, its
## body raised and tilted by the stepper, a FabrikChain2D tail on the body, beside its mirror image (scale.x = -1, on
## the ground mirrored across x = 0). The live run is the game's own (physics ticks of 1/60 s: the animation, then the
## stepper, then the batch); the baked animation, replayed with every Reach2D node off, must give the same joints.

const Bake := preload("res://addons/reach2d/editor/bake.gd")
const BakeCharacter := preload("res://editor_tools/test_bake_character.gd")
const DT := 1.0 / 60.0
const DROP: float = Characters.STEPPER_FOOT_DROP
## The walk: the creature stands for STILL s (so the feet plant alike whether the game's first frame sees the
## animation's first key or its second), then walks SPEED px/s until LENGTH s.
const LENGTH := 3.0
const STILL := 0.25
const SPEED := 120.0
const START_X := 40.0


## The creature facing `facing` (1: walking toward +x from START_X; -1: its mirror image across x = 0) on `legs`
## (Characters.stepper_legs), every node in manual mode, with its walk (standing for `still` s first) in an
## AnimationPlayer. With `warm` its chain legs and its tail do not solve from rest: each solve starts from the last
## one's pose. Returns Characters.stepping_creature's parts
## and the tail, the player, and every Reach2D node.
func make_creature(facing: float, warm := false, still := STILL, legs := Characters.six_legs()) -> Dictionary:
	var at := Vector2(facing * START_X, Characters.stepper_ground_height(START_X) - DROP)
	var case := Characters.stepping_creature(self, at, facing, legs)
	if warm:
		for leg: Node2D in case["legs"]:
			if leg.get_class() != "TwoBoneIk2D":
				leg.solve_from_rest = false
	var creature: Node2D = case["creature"]
	creature.name = "Walker" if facing > 0.0 else "Mirrored"
	case["stepper"].tilt_body = true
	# A tail on the body, solved in the batch after the stepper has raised and tilted the body.
	var tail := Rig.chain(case["body"], [14.0, 12.0, 10.0], [2.6, 0.3, 0.3], "tail_%d", [0.2, 0.2, 0.2])
	var aim := Node2D.new()
	aim.name = "TailAim"
	aim.position = Vector2(-70, -40)
	creature.add_child(aim)
	var chain: Node2D = ClassDB.instantiate("FabrikChain2D")
	chain.name = "Tail"
	chain.root_bone = tail[0]
	chain.tip_bone = tail[-1]
	chain.target = aim
	chain.solve_from_rest = not warm
	chain.tolerance = 0.001
	chain.max_iterations = 64
	chain.update_mode = 2
	creature.add_child(chain)
	case["tail"] = chain
	case["tail_bones"] = tail
	case["nodes"] = case["legs"] + [case["stepper"], chain]
	var player := AnimationPlayer.new()
	player.name = "Player"
	creature.add_child(player)
	player.add_animation_library("", make_walk(facing, still))
	player.assigned_animation = "walk"
	case["player"] = player
	return case


## The walk: the root's position keyed every 0.05 s, its height following the ground under the creature; standing
## for `still` s first.
func make_walk(facing: float, still := STILL) -> AnimationLibrary:
	var animation := Animation.new()
	animation.length = LENGTH
	var move := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(move, ".:position")
	for k in int(LENGTH * 20.0) + 1:
		var t := k / 20.0
		var x := START_X + SPEED * maxf(0.0, t - still)
		animation.track_insert_key(move, t, Vector2(facing * x, Characters.stepper_ground_height(x) - DROP))
	var library := AnimationLibrary.new()
	library.add_animation("walk", animation)
	return library


## Every joint of every leg and of the tail, and the body's origin and end, global.
static func points_of(case: Dictionary) -> PackedVector2Array:
	var points := PackedVector2Array()
	for bones: Array in case["bones"] + [case["tail_bones"]]:
		for b: Bone2D in bones:
			points.append(b.global_position)
		points.append(Rig.bone_end(bones[-1]))
	points.append(case["body"].global_position)
	points.append(Rig.bone_end(case["body"]))
	return points


## The ground and both creatures, posed at the animation's start, the physics space settled.
func make_scene() -> Array:
	Characters.stepper_ground(self)
	Characters.stepper_ground(self, true, 0.0)
	var cases := [make_creature(1.0), make_creature(-1.0)]
	for case in cases:
		case["player"].seek(0.0, true)
	await settle_physics()
	return cases


## The live run of `cases`: physics ticks of 1/60 s, the animation in physics mode, the stepper and the tail in
## physics mode at their run-time priorities, from the same tick on. Per tick: [animation time, points of each case].
func run_live(cases: Array) -> Array:
	var live := []
	var recorder := BakeCharacter.Recorder.new(func():
		var tick := [cases[0]["player"].current_animation_position]
		for case in cases:
			tick.append(points_of(case))
		live.append(tick))
	await get_tree().process_frame
	for case in cases:
		case["stepper"].update_mode = 1
		case["tail"].update_mode = 1
	add_child(BakeCharacter.Starter.new(func():
		for case in cases:
			case["player"].seek(0.0, true)
			case["player"].callback_mode_process = AnimationMixer.ANIMATION_CALLBACK_MODE_PROCESS_PHYSICS
			case["player"].play(&"walk")
		add_child(recorder)))
	while recorder.ticks < int(LENGTH * 60.0) - 6:
		await get_tree().physics_frame
	recorder.free()
	for case in cases:
		case["player"].pause()
		case["stepper"].update_mode = 2
		case["tail"].update_mode = 2
	return live


## Replays `animation_name` of `case` (its nodes off) at each tick's time of `live`: [the largest distance of its
## points from the live run's column `column`, its time].
func replay_error(case: Dictionary, animation_name: StringName, live: Array, column: int) -> Array:
	case["player"].assigned_animation = animation_name
	var worst := 0.0
	var worst_at := 0.0
	for tick in live:
		case["player"].seek(tick[0], true)
		var off := largest_distance(points_of(case), tick[column])
		if off > worst:
			worst = off
			worst_at = tick[0]
	return [worst, worst_at]


func free_scene(cases: Array) -> void:
	for case in cases:
		case["creature"].free()
	for child in get_children():
		if child is StaticBody2D:
			child.free()


func test_a_stepping_creature_bakes_and_replays_its_live_walk_mirrored_too() -> void:
	var cases: Array = await make_scene()
	var kinds := func(found: Dictionary) -> Array:
		return found["stages"].map(func(stage): return [stage[0], stage[1].map(func(n): return String(n.name))])
	var found := Bake.character_nodes(cases[0]["creature"])
	expect(kinds.call(found) == [["stepper", ["Stepper"]], ["batch", ["Tail"]]], "the stepper runs before the batch, its legs left to it: %s" % [kinds.call(found)])
	var results := []
	for case in cases:
		var result := Bake.bake_character(case["creature"], case["player"], &"walk", DT, &"walk_baked")
		results.append(result)
		expect(result["ok"], "%s: the creature bakes (%s)" % [case["creature"].name, result])
		if result["ok"]:
			expect(Array(result["nodes"]) == ["Stepper", "Tail"], "the nodes run in the game's order (%s)" % [result["nodes"]])
			# 14 leg bones, 3 tail bones, the body's rotation and position.
			expect(result["tracks"] == 19, "19 tracks: every leg and tail bone's rotation, the body's rotation and position (%d)" % result["tracks"])
	if not (results[0]["ok"] and results[1]["ok"]):
		free_scene(cases)
		return
	var baked: Animation = cases[0]["player"].get_animation(&"walk_baked")
	for path in ["Skeleton/Body:position", "Skeleton/Body:rotation", "Skeleton/Body/Leg0_0:rotation", "Skeleton/Body/Leg1_0/Leg1_1/Leg1_2:rotation"]:
		expect(baked.find_track(NodePath(path), Animation.TYPE_VALUE) >= 0, "the bake keys %s" % path)
	var live: Array = await run_live(cases)
	var stepped: int = cases[0]["stepper"].get_teleport_count()
	expect(stepped == 0, "the live walk teleported nothing (%d)" % stepped)
	# Baked again after the live run (the legs hold their last pose, the body is raised): the same keys.
	var again := Bake.bake_character(cases[0]["creature"], cases[0]["player"], &"walk", DT, &"walk_again")
	var keys_apart := BakeCharacter.largest_key_difference(baked, cases[0]["player"].get_animation(&"walk_again")) if again["ok"] else INF
	expect(keys_apart < 1e-4, "baked again after the live run: the same keys (largest difference %s)" % keys_apart)
	for case in cases:
		for node in case["nodes"]:
			node.enabled = false
	var mirror := 0.0
	var moved := 0.0
	for tick in live:
		mirror = maxf(mirror, largest_mirror_distance(tick[1], tick[2], 0.0))
		moved = maxf(moved, largest_distance(tick[1], live[0][1]))
	expect(moved > 200.0, "the creature walked (%.1f px)" % moved)
	expect(mirror < 0.05, "the live mirrored creature is the mirror image (worst %.5f px)" % mirror)
	print("live run: %d ticks from t = %.4f s to %.4f s; the mirrored creature within %.6f px of the mirror image" % [live.size(), live[0][0], live[-1][0], mirror])
	for c in 2:
		var label: String = cases[c]["creature"].name
		var error := replay_error(cases[c], &"walk_baked", live, 1 + c)
		expect(error[0] < 0.001, "%s: the baked animation replays the live walk within 0.001 px (worst %.6f px at t = %.3f s)" % [label, error[0], error[1]])
		print("MEASURED %s: %d keys, %d tracks; the replay's joints within %.6f px of the live walk (worst at t = %.3f s)" % [label, results[c]["keys"], results[c]["tracks"], error[0], error[1]])
	var plain := replay_error(cases[0], &"walk", live, 1)
	expect(plain[0] > 5.0, "the plain walk is far from the stepping one (%.2f px): the comparison can fail" % plain[0])
	free_scene(cases)


## A leg of an enabled stepper alone is refused, naming the stepper and the character bake (its own solve would key
## the plain walk); the stepper alone bakes its legs and body, the same keys as the whole creature's.
func test_a_stepper_bakes_with_its_legs_and_body_and_its_leg_alone_is_refused() -> void:
	var cases: Array = await make_scene()
	var case: Dictionary = cases[0]
	var player: AnimationPlayer = case["player"]
	for leg in [case["legs"][0], case["legs"][1]]:
		var refused := Bake.bake_to_animation(leg, player, &"walk", DT, &"leg_baked")
		var error := String(refused.get("error", ""))
		expect(not refused["ok"] and "LegStepper2D Stepper" in error and "bake_character" in error, "%s (%s) alone is refused, naming its stepper and the character bake (%s)" % [leg.name, leg.get_class(), refused])
		error_log.take()
	expect(not player.has_animation(&"leg_baked"), "the refusals bake nothing")
	var alone := Bake.bake_to_animation(case["stepper"], player, &"walk", DT, &"stepper_baked")
	var whole := Bake.bake_character(case["creature"], player, &"walk", DT, &"whole_baked")
	expect(alone["ok"] and alone["tracks"] == 16 and alone["notes"].is_empty(), "the stepper alone keys its 14 leg bones and the body's rotation and position, without a note (%s)" % [alone])
	if alone["ok"] and whole["ok"]:
		var stepper_keys: Animation = player.get_animation(&"stepper_baked")
		var whole_keys: Animation = player.get_animation(&"whole_baked")
		var apart := BakeCharacter.largest_key_difference(stepper_keys, whole_keys)
		expect(apart == 0.0, "the stepper's keys are the whole creature's (%s apart)" % apart)
	case["stepper"].enabled = false
	var leg_now := Bake.bake_to_animation(case["legs"][0], player, &"walk", DT, &"leg_free")
	expect(leg_now["ok"], "a leg of a disabled stepper bakes by itself (%s)" % [leg_now])
	free_scene(cases)


## Issue 36, item 2: bakes repeat. A creature on four FabrikChain2D legs that, like its tail, warm-start (each
## solve from the last one's pose), walking from its first frame (every group's feet drift past step_distance on the same frame, so the gait's
## turns pick the group that lifts first), is baked three times, the third after a live run, and an identical twin
## that was never baked walks the same live run beside it (on the same spot: the legs cast rays only at the ground).
## Every bake gives the same keys, and the replayed keys are the fresh twin's live walk.
func test_bakes_repeat_and_replay_a_fresh_live_run() -> void:
	Characters.stepper_ground(self)
	var legs := Characters.stepper_legs([-50.0, -20.0, 20.0, 50.0], {0: "FabrikChain2D", 1: "FabrikChain2D", 2: "FabrikChain2D", 3: "FabrikChain2D"})
	var baked := make_creature(1.0, true, 0.0, legs)
	var fresh := make_creature(1.0, true, 0.0, legs)
	fresh["creature"].name = "Fresh"
	for case in [baked, fresh]:
		case["player"].seek(0.0, true)
	await settle_physics()
	var player: AnimationPlayer = baked["player"]
	var keys := []
	for name in [&"first", &"second"]:
		var result := Bake.bake_character(baked["creature"], player, &"walk", DT, name)
		expect(result["ok"], "bake %s (%s)" % [name, result])
		keys.append(player.get_animation(name) if result["ok"] else null)
	var live: Array = await run_live([baked, fresh])
	var third := Bake.bake_character(baked["creature"], player, &"walk", DT, &"third")
	expect(third["ok"], "the third bake, after the live run (%s)" % [third])
	keys.append(player.get_animation(&"third") if third["ok"] else null)
	if keys.has(null):
		free_scene([baked, fresh])
		return
	var second_apart := BakeCharacter.largest_key_difference(keys[0], keys[1])
	var third_apart := BakeCharacter.largest_key_difference(keys[0], keys[2])
	expect(second_apart <= 1e-5, "the second bake gives the first one's keys (largest difference %s)" % second_apart)
	expect(third_apart <= 1e-5, "the third bake, after a live run, gives the first one's keys (largest difference %s)" % third_apart)
	for node in baked["nodes"] + fresh["nodes"]:
		node.enabled = false
	var own := replay_error(baked, &"first", live, 1)
	var twin := replay_error(baked, &"first", live, 2)
	var plain := replay_error(baked, &"walk", live, 2)
	expect(twin[0] <= 0.01, "the bake replays the fresh twin's live walk within 0.01 px (worst %.6f px at t = %.3f s)" % twin)
	expect(own[0] <= 0.01, "the bake replays the baked creature's own live walk within 0.01 px (worst %.6f px at t = %.3f s)" % own)
	expect(plain[0] > 5.0, "the plain walk is far from the stepping one (%.2f px): the comparison can fail" % plain[0])
	print("MEASURED bakes apart: second %s, third (after a live run) %s; replay vs the fresh twin's live walk %.6f px, vs its own %.6f px" % [second_apart, third_apart, twin[0], own[0]])
	free_scene([baked, fresh])
