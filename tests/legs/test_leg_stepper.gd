extends "res://lib/test_case.gd"
## LegStepper2D (issue 33): a six-legged creature (four TwoBoneIk2D legs, a FabrikChain2D and a CcdChain2D leg, bone
## angles != 0) walks over real ground (a StaticBody2D with a bump, a block, a slope and a drop) while a script moves
## its root, beside its mirror image (scale.x = -1 on mirrored ground). Proves with numbers: planted feet never slide,
## no foot below the ground, one group in the air at a walk, the mirror image within 0.05 px, no pop at a turn or a
## teleport, each signal once per event, the body raised and tilted within its limits, and the measurements the
## README quotes (printed as `MEASURED ...`).

const DT := 1.0 / 60.0
const DROP: float = Characters.STEPPER_FOOT_DROP
## The mirror axis of the mirrored twins: x = 0 (x and -x round alike), or where a test sets it.
var axis := 0.0


## The speed a walk has at frame `frame`, px/s: 60 to 160, speeding up and slowing down.
func walk_speed(frame: int) -> float:
	return 60.0 + 100.0 * pow(sin(frame * DT * 0.45), 2)


## A creature at x (its feet on the ground), optionally the mirror twin of one at -x.
func make_creature(x: float, mirrored := false, legs := Characters.six_legs()) -> Dictionary:
	var at := Vector2(2.0 * axis - x if mirrored else x, Characters.stepper_ground_height(x) - DROP)
	return Characters.stepping_creature(self, at, -1.0 if mirrored else 1.0, legs)


## Moves `case`'s root by `dx` (its own facing's direction is the caller's) and lets its y follow the ground under it
## smoothly, as a character controller would; then steps it.
func move_and_step(case: Dictionary, dx: float, mirrored := false) -> void:
	var root: Node2D = case["creature"]
	root.position.x += dx
	var x := 2.0 * axis - root.position.x if mirrored else root.position.x
	root.position.y = lerpf(root.position.y, Characters.stepper_ground_height(x) - DROP, minf(1.0, 6.0 * DT))
	case["stepper"].advance(DT)


## Every joint of every leg, and each foot's end effector, global.
func leg_joints(case: Dictionary) -> PackedVector2Array:
	var points := PackedVector2Array()
	for bones: Array in case["bones"]:
		for b: Bone2D in bones:
			points.append(b.global_position)
		points.append(Rig.bone_end(bones[-1]))
	return points


func feet_of(case: Dictionary) -> PackedVector2Array:
	var points := PackedVector2Array()
	for bones: Array in case["bones"]:
		points.append(Rig.bone_end(bones[-1]))
	return points


## The walk's measures for one creature, updated each frame by `measure`.
class Walk:
	## Planted slip of the two-bone legs and of the chain legs (within their tolerance), px.
	var slip := 0.0
	var chain_slip := 0.0
	## Leg i is a chain (FabrikChain2D, CcdChain2D).
	var chains := {}
	var goal_slip := 0.0
	var below := 0.0
	var most_in_air := 0
	var planted_frames := 0
	var anchors := {}
	var goal_anchors := {}

	func measure(stepper: Node2D, feet: PackedVector2Array, mirror_axis: float) -> void:
		most_in_air = maxi(most_in_air, stepper.get_feet_in_air())
		for i in feet.size():
			var foot := feet[i]
			var x := 2.0 * mirror_axis - foot.x if is_finite(mirror_axis) else foot.x
			below = maxf(below, foot.y - Characters.stepper_ground_height(x))
			if not stepper.is_foot_planted(i):
				anchors.erase(i)
				continue
			planted_frames += 1
			var goal: Vector2 = stepper.get_foot_goal(i)
			if not anchors.has(i):
				anchors[i] = foot
				goal_anchors[i] = goal
			if chains.has(i):
				chain_slip = maxf(chain_slip, foot.distance_to(anchors[i]))
			else:
				slip = maxf(slip, foot.distance_to(anchors[i]))
			goal_slip = maxf(goal_slip, goal.distance_to(goal_anchors[i]))


## Walks a creature and its mirror image (scale.x = -1 on the ground mirrored across x = `mirror_axis`) for 600
## frames at walk_speed; checks and prints the walk's measures.
func walk_beside_mirror(mirror_axis: float) -> void:
	axis = mirror_axis
	Characters.stepper_ground(self)
	Characters.stepper_ground(self, true, axis)
	await settle_physics()
	var case := make_creature(40.0)
	var twin := make_creature(40.0, true)
	var walks := [Walk.new(), Walk.new()]
	for walk: Walk in walks:
		for i in case["legs"].size():
			if case["legs"][i].get_class() != "TwoBoneIk2D":
				walk.chains[i] = true
	var mirror_worst := 0.0
	var lifted := [0]
	case["stepper"].foot_lifted.connect(func(_i: int) -> void: lifted[0] += 1)
	for frame in 600:
		var dx := walk_speed(frame) * DT
		move_and_step(case, dx)
		move_and_step(twin, -dx, true)
		walks[0].measure(case["stepper"], feet_of(case), INF)
		walks[1].measure(twin["stepper"], feet_of(twin), axis)
		mirror_worst = maxf(mirror_worst, largest_mirror_distance(leg_joints(case), leg_joints(twin), axis))
	var walk: Walk = walks[0]
	var x: float = case["creature"].position.x
	expect(x > 1000.0, "the creature crossed the ground's features (x %.0f)" % x)
	expect(lifted[0] > 60, "it stepped (%d lifts)" % lifted[0])
	expect(walk.planted_frames > 1500, "planted foot-frames measured: %d" % walk.planted_frames)
	for w: Walk in walks:
		expect(w.goal_slip == 0.0, "a planted foot's goal never moves (moved %.6f px)" % w.goal_slip)
		expect(w.slip < 1e-3, "a planted two-bone foot never slides (slid %.5f px)" % w.slip)
		expect(w.chain_slip < 0.02, "a planted chain foot stays within its tolerance, 0.01 px (slid %.5f px)" % w.chain_slip)
		expect(w.below < 0.01, "no foot below the ground (worst %.5f px)" % w.below)
		expect(w.most_in_air <= 3, "one group of three in the air at a time (most %d)" % w.most_in_air)
	expect(case["stepper"].get_catch_up_count() == 0, "no catch-up at a walk")
	expect(mirror_worst < 0.05, "the mirrored creature is the mirror image (worst joint %.5f px)" % mirror_worst)
	print("MEASURED walk 600 frames, mirror axis x = %s: planted slip %.5f px two-bone legs, %.5f px chain legs (tolerance 0.01), goal %.6f px; feet below ground worst %.5f px; most feet in air %d (of 6); catch-ups %d; lifts %d; mirror worst joint %.5f px; mirrored twin: slip %.5f / %.5f px, below %.5f px, most in air %d" % [
		axis, walk.slip, walk.chain_slip, walk.goal_slip, walk.below, walk.most_in_air,
		case["stepper"].get_catch_up_count(), lifted[0], mirror_worst, walks[1].slip, walks[1].chain_slip,
		walks[1].below, walks[1].most_in_air])
	free_case(case, ["creature"])
	free_case(twin, ["creature"])


func test_a_walk_over_bumps_a_block_and_a_slope_plants_its_feet_and_mirrors() -> void:
	await walk_beside_mirror(0.0)


func test_a_walk_mirrored_across_another_line_is_the_mirror_image_within_rounding() -> void:
	# Across x = 1500: the twin walks at x = 3000 - x, where its coordinates round differently.
	await walk_beside_mirror(1500.0)


## The two-bone legs' joints (hip, knee, foot) in the creature's own space (its root's): what a turn or a teleport
## must not make jump. (A chain leg's middle joints may jump between frames whatever the stepper does: a redundant
## chain solved from rest settles where its iterations stop.)
func local_joints(case: Dictionary) -> PackedVector2Array:
	var to_local: Transform2D = case["creature"].global_transform.affine_inverse()
	var points := PackedVector2Array()
	for i in case["legs"].size():
		if case["legs"][i].get_class() != "TwoBoneIk2D":
			continue
		var bones: Array = case["bones"][i]
		for b: Bone2D in bones:
			points.append(to_local * b.global_position)
		points.append(to_local * Rig.bone_end(bones[-1]))
	return points


func test_a_turn_carries_the_feet_mirrored_and_nothing_pops() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var case := make_creature(100.0)
	var stepper: Node2D = case["stepper"]
	stepper.tilt_body = true
	var facing := 1.0
	var ordinary := 0.0
	var at_turns := 0.0
	# A planted foot's goal in the creature's space moves by the body's own motion each frame; a turn that left the
	# feet where they were would throw each one across the body. Along up, a turn may set a foot back on uneven
	# ground (the ground under its mirrored place differs).
	var feet_at_turns := 0.0
	var feet_regrounded := 0.0
	var body_moves := 0.0
	var turns := 0
	var last := PackedVector2Array()
	var last_feet := {}
	# The body's own rotation as written (its tilt, in its parent's space): a turn keeps it.
	var body: Bone2D = case["body"]
	var last_rotation := body.rotation
	var rotation_at_turns := 0.0
	var rotation_ordinary := 0.0
	# Footprints kept from the signals alone stay where the planted feet are, turns included.
	var footprints := {}
	var stale := 0.0
	stepper.foot_planted.connect(func(i: int, at: Vector2) -> void: footprints[i] = at)
	for frame in 600:
		var turn := frame > 0 and frame % 150 == 0
		if turn:
			facing = -facing
			case["creature"].scale.x = facing
			turns += 1
		var dx := facing * walk_speed(frame) * DT
		move_and_step(case, dx)
		var to_local: Transform2D = case["creature"].global_transform.affine_inverse()
		var feet := {}
		for i in case["legs"].size():
			if stepper.is_foot_planted(i) and footprints.has(i):
				stale = maxf(stale, (footprints[i] as Vector2).distance_to(stepper.get_foot_goal(i)))
			if stepper.is_foot_planted(i):
				feet[i] = to_local * (stepper.get_foot_goal(i) as Vector2)
				if turn and last_feet.has(i):
					feet_at_turns = maxf(feet_at_turns, absf(feet[i].x - last_feet[i].x))
					feet_regrounded = maxf(feet_regrounded, absf(feet[i].y - last_feet[i].y))
		if turn:
			body_moves = maxf(body_moves, absf(dx))
		last_feet = feet
		var turned_by := absf(angle_difference(last_rotation, body.rotation))
		if turn:
			rotation_at_turns = maxf(rotation_at_turns, turned_by)
		else:
			rotation_ordinary = maxf(rotation_ordinary, turned_by)
		last_rotation = body.rotation
		var now := local_joints(case)
		if not last.is_empty():
			var moved := largest_distance(now, last)
			if turn:
				at_turns = maxf(at_turns, moved)
			else:
				ordinary = maxf(ordinary, moved)
		last = now
	expect(turns == 3, "three turns")
	# The legs keep their pose through the turn: no joint moves (in the creature's space) more than in the worst
	# ordinary frame, and a planted foot only by the body's own motion.
	expect(at_turns <= ordinary + 1e-3, "a turn moves the legs' joints %.4f px in the creature's space, an ordinary frame up to %.4f px" % [at_turns, ordinary])
	expect(rotation_ordinary > 0.0 and rotation_at_turns <= rotation_ordinary + 1e-5, "the body's tilt turns with it: its rotation moves %.5f rad at a turn, up to %.5f in an ordinary frame" % [rotation_at_turns, rotation_ordinary])
	expect(feet_at_turns <= body_moves + 0.5, "at a turn a planted foot moves %.4f px across in the creature's space, the body %.4f px" % [feet_at_turns, body_moves])
	expect(stale < 1e-4, "footprints kept from foot_planted stay on the planted feet through the turns (%.5f px)" % stale)
	print("MEASURED turns: footprints from the signals at most %.5f px from the planted feet; at a turn a planted foot moves %.4f px across in the creature's space (the body's own motion that frame: %.4f px) and %.4f px along up (set back on the uneven ground under its mirrored place), the largest joint move %.4f px (an ordinary frame's: up to %.4f px), the body's rotation %.5f rad (up to %.5f); 3 turns in 600 frames" % [stale, feet_at_turns, body_moves, feet_regrounded, at_turns, ordinary, rotation_at_turns, rotation_ordinary])
	free_case(case, ["creature"])


## A teleport plants every foot under its home at once: no step (no foot_lifted), and foot_planted tells each foot's
## new place once, so a script that keeps footprints from the signals stays right.
func test_a_teleport_replants_every_foot_at_its_home_without_steps_and_tells_where() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var case := make_creature(100.0)
	var stepper: Node2D = case["stepper"]
	var lifted := [0]
	var footprints := {}
	var planted := [0]
	stepper.foot_lifted.connect(func(_i: int) -> void: lifted[0] += 1)
	stepper.foot_planted.connect(func(i: int, at: Vector2) -> void:
		footprints[i] = at
		planted[0] += 1)
	for frame in 40:
		move_and_step(case, 90.0 * DT)
	var before := local_joints(case)
	var counted: int = lifted[0]
	planted[0] = 0
	case["creature"].position.x += 1500.0
	stepper.advance(DT)
	expect(stepper.get_teleport_count() == 1, "one teleport (%d)" % stepper.get_teleport_count())
	expect(lifted[0] == counted, "no step at the teleport (%d lifts)" % (lifted[0] - counted))
	expect(planted[0] == case["legs"].size(), "foot_planted once for each foot (%d)" % planted[0])
	for i in case["legs"].size():
		expect_vec_near(footprints.get(i, Vector2.INF), stepper.get_foot_goal(i), 1e-4, "foot %d's footprint is where it stands" % i)
	var worst_home := 0.0
	for i in case["legs"].size():
		expect(stepper.is_foot_planted(i), "foot %d planted after the teleport" % i)
		var goal: Vector2 = stepper.get_foot_goal(i)
		var home: Vector2 = stepper.get_home(i)
		worst_home = maxf(worst_home, absf(goal.x - home.x))
		expect_near(goal.y, Characters.stepper_ground_height(goal.x), 1e-3, "foot %d on the ground" % i)
	expect(worst_home < 1e-3, "every foot right under its home (%.5f px across)" % worst_home)
	var pop := largest_distance(local_joints(case), before)
	# The feet were up to a step (24 px) plus the lead from home: that is all a teleport moves them, in one frame.
	expect(pop <= 24.0 + 9.0 + 1.0, "the teleport moved a joint %.3f px in the creature's space" % pop)
	for frame in 30:
		move_and_step(case, 90.0 * DT)
	expect(stepper.get_teleport_count() == 1, "walking on is no teleport")
	print("MEASURED teleport 1500 px: feet re-planted under their homes (worst %.5f px across), foot_planted once per foot, no foot_lifted, largest joint move in the creature's space %.3f px" % [worst_home, pop])
	free_case(case, ["creature"])


func test_each_signal_comes_once_per_step_with_where_the_foot_landed() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var case := make_creature(100.0)
	var stepper: Node2D = case["stepper"]
	var n: int = case["legs"].size()
	var lifted := []
	var landed := []
	lifted.resize(n)
	landed.resize(n)
	lifted.fill(0)
	landed.fill(0)
	var mismatch := []
	stepper.foot_lifted.connect(func(i: int) -> void: lifted[i] += 1)
	stepper.foot_planted.connect(func(i: int, at: Vector2) -> void:
		landed[i] += 1
		if at != stepper.get_foot_goal(i):
			mismatch.append(i))
	var lifts := []
	var lands := []
	lifts.resize(n)
	lands.resize(n)
	lifts.fill(0)
	lands.fill(0)
	var was := []
	for i in n:
		was.append(true)
	for frame in 300:
		move_and_step(case, (walk_speed(frame) if frame % 100 < 70 else -40.0) * DT)
		for i in n:
			var planted: bool = stepper.is_foot_planted(i)
			if was[i] and not planted:
				lifts[i] += 1
			elif planted and not was[i]:
				lands[i] += 1
			was[i] = planted
	expect(lifted == lifts, "one foot_lifted per lift: signals %s, lifts %s" % [lifted, lifts])
	expect(landed == lands, "one foot_planted per landing: signals %s, landings %s" % [landed, lands])
	expect(mismatch.is_empty(), "foot_planted gives the planted point (legs %s)" % [mismatch])
	var total := 0
	for count in lifted:
		total += count
	expect(total > 20, "the creature stepped (%d)" % total)
	free_case(case, ["creature"])


func test_the_body_rides_on_the_planted_feet_within_its_limits_and_comes_back() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var case := make_creature(300.0)
	var stepper: Node2D = case["stepper"]
	var body: Bone2D = case["body"]
	stepper.tilt_body = true
	stepper.max_body_tilt = 0.15
	stepper.body_speed = 60.0
	stepper.body_tilt_speed = 1.0
	var authored := body.position
	var authored_rotation := body.rotation
	var last_raise := 0.0
	var last_tilt := 0.0
	var worst_raise_step := 0.0
	var worst_tilt_step := 0.0
	var most_raise := 0.0
	var most_tilt := 0.0
	var position_error := 0.0
	for frame in 500:
		move_and_step(case, 70.0 * DT)
		var raise: float = stepper.get_body_raise()
		var tilt: float = stepper.get_body_tilt()
		worst_raise_step = maxf(worst_raise_step, absf(raise - last_raise))
		worst_tilt_step = maxf(worst_tilt_step, absf(tilt - last_tilt))
		most_raise = maxf(most_raise, absf(raise))
		most_tilt = maxf(most_tilt, absf(tilt))
		# The body's own position plus the raise along up (the skeleton is unscaled: up is -y).
		position_error = maxf(position_error, body.position.distance_to(authored + Vector2(0, -raise)))
		last_raise = raise
		last_tilt = tilt
	expect(most_raise > 5.0, "the body rose on the block and the slope (%.2f px)" % most_raise)
	expect(most_raise <= stepper.max_body_offset + 1e-4, "within max_body_offset")
	expect(most_tilt > 0.05 and most_tilt <= 0.15 + 1e-5, "the body tilted on the slope, within max_body_tilt (%.4f rad)" % most_tilt)
	expect(worst_raise_step <= 60.0 * DT + 1e-4, "the raise moved at most body_speed (%.4f px/frame)" % worst_raise_step)
	expect(worst_tilt_step <= 1.0 * DT + 1e-5, "the tilt moved at most body_tilt_speed (%.5f rad/frame)" % worst_tilt_step)
	expect(position_error < 1e-3, "the body is its own position plus the raise (%.5f px)" % position_error)
	stepper.enabled = false
	expect(body.position == authored, "disabled: the body's own position is back exactly (%s)" % body.position)
	expect(body.rotation == authored_rotation, "disabled: the body's own rotation is back exactly")
	free_case(case, ["creature"])


func test_an_animated_body_keeps_its_animation_under_the_raise() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var case := make_creature(380.0)
	var stepper: Node2D = case["stepper"]
	var body: Bone2D = case["body"]
	var player := AnimationPlayer.new()
	case["creature"].add_child(player)
	var animation := Animation.new()
	animation.length = 1.0
	animation.loop_mode = Animation.LOOP_LINEAR
	var track := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(track, "Skeleton/Body:position")
	animation.track_insert_key(track, 0.0, Vector2(0, 0))
	animation.track_insert_key(track, 0.5, Vector2(0, -6))
	animation.track_insert_key(track, 1.0, Vector2(0, 0))
	var library := AnimationLibrary.new()
	library.add_animation("bob", animation)
	player.add_animation_library("", library)
	player.callback_mode_process = AnimationMixer.ANIMATION_CALLBACK_MODE_PROCESS_MANUAL
	player.play("bob")
	var worst := 0.0
	var raised := 0.0
	for frame in 240:
		player.advance(DT)
		var animated := body.position
		move_and_step(case, 60.0 * DT)
		raised = maxf(raised, absf(stepper.get_body_raise()))
		worst = maxf(worst, body.position.distance_to(animated + Vector2(0, -stepper.get_body_raise())))
	expect(raised > 5.0, "the block raised the body (%.2f px)" % raised)
	expect(worst < 1e-3, "the body is the animation's position plus the raise every frame (%.5f px)" % worst)
	free_case(case, ["creature"])


## What a bake must key to replay a stepper's walk (bake.gd's whole-character bake): every leg bone's rotation and
## the body's position and rotation. Replayed with the stepper off and only those values set, every joint of every
## leg is where the live walk put it: the stepper writes nothing else.
func test_what_the_stepper_writes_is_the_legs_rotations_and_the_body_position_and_rotation() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var case := make_creature(560.0)
	var stepper: Node2D = case["stepper"]
	var body: Bone2D = case["body"]
	stepper.tilt_body = true
	var bones: Array[Bone2D] = []
	for leg: Array in case["bones"]:
		for b: Bone2D in leg:
			bones.append(b)
	var samples := []
	var leaned := 0.0
	for frame in 180:
		move_and_step(case, walk_speed(frame) * DT)
		leaned = maxf(leaned, maxf(absf(stepper.get_body_tilt()) * 100.0, absf(stepper.get_body_raise())))
		var keys := []
		for b in bones:
			keys.append(b.rotation)
		samples.append({"root": case["creature"].position, "keys": keys, "body": [body.position, body.rotation],
			"joints": leg_joints(case)})
	expect(leaned > 1.0, "the body moved on the slope (raise or 100 x tilt up to %.2f)" % leaned)
	stepper.enabled = false
	var worst := 0.0
	for sample: Dictionary in samples:
		case["creature"].position = sample["root"]
		for i in bones.size():
			bones[i].rotation = sample["keys"][i]
		body.position = sample["body"][0]
		body.rotation = sample["body"][1]
		worst = maxf(worst, largest_distance(leg_joints(case), sample["joints"]))
	expect(worst < 1e-4, "replayed from the keys, every joint is where the walk put it (worst %.6f px)" % worst)
	print("MEASURED keys replay: 180 frames replayed from the legs' rotations and the body's position and rotation, worst joint %.6f px from the live walk" % worst)
	free_case(case, ["creature"])
