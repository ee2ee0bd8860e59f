extends "res://lib/test_case.gd"
## CopyTransform2D's recipes (README, issue 36) on characters that turn with scale.x = -1 mid-run, each with the space
## and settings the README gives: a wheel rolling under a cart that drives, turns and drives back (slip per frame), a
## piston driven by a crank over several full turns (its largest jump per frame), eyes that follow the head and look
## at a target, a weapon held by a hand. Each runs plain and in a mirrored twin (the whole scene under scale.x = -1).

const RADIUS := 16.0
## Cart speed, px per frame.
const SPEED := 2.0
## Piston stroke per radian of the crank, and the crank's turn per frame.
const STROKE := 10.0
const CRANK_STEP := 0.1


## A level (flipped by scale.x = -1 for the mirrored twin) with a cart, its skeleton and a wheel bone (bone angle and
## a start rotation != 0), and the README's wheel copy in `space`: rotation from the cart's x, factor 1 / radius, the
## position not written. Returns {level, cart, wheel, copy}.
func make_cart(space: int, mirrored: bool, at: Vector2) -> Dictionary:
	var level := Node2D.new()
	level.position = at
	level.scale = Vector2(-1, 1) if mirrored else Vector2.ONE
	add_child(level)
	var cart := Node2D.new()
	cart.name = "Cart"
	cart.position = Vector2(0, 0)
	level.add_child(cart)
	var skeleton := Skeleton2D.new()
	cart.add_child(skeleton)
	var wheel := Rig.bone(skeleton, "Wheel", Vector2(24, 10), RADIUS, 0.7, 0.4)
	var roll: Node2D = ClassDB.instantiate("CopyTransform2D")
	roll.source = cart
	roll.bone = wheel
	roll.space = space
	roll.rotation_from = 1                     # FROM_X
	roll.rotation_factor = 1.0 / RADIUS
	roll.position_amount = 0.0
	cart.add_child(roll)
	return {"level": level, "cart": cart, "wheel": wheel, "copy": roll}


## The angle of `bone`'s global x axis: how its drawing is turned on screen (any mirror above it included).
static func screen_angle(bone: Node2D) -> float:
	return bone.global_transform.x.angle()


## The README wheel on a cart that drives right, turns (scale.x = -1), drives back, turns again and drives right: each
## frame it drives, the slip is radius x the wheel's turn on screen minus the ground it covered (clockwise on screen is
## positive, so a wheel going right turns clockwise). Local space (the README's) and global, plain and mirrored twin.
func test_the_readme_wheel_rolls_on_a_cart_that_turns() -> void:
	var legs := [[1.0, 1.0, 30], [-1.0, -1.0, 60], [1.0, 1.0, 40]]  # [cart scale.x, direction, frames]
	var report := []
	for space in [1, 0]:
		for mirrored in [false, true]:
			var c := make_cart(space, mirrored, Vector2(400, 300))
			var cart: Node2D = c["cart"]
			var wheel: Bone2D = c["wheel"]
			await get_tree().process_frame
			await get_tree().process_frame
			var worst := 0.0
			var rolled := 0
			for leg in legs:
				cart.scale = Vector2(leg[0], 1)
				await get_tree().process_frame      # the turn: no driving this frame
				for frame in leg[2]:
					var angle := screen_angle(wheel)
					var x := wheel.global_position.x
					cart.position.x += leg[1] * SPEED
					await get_tree().process_frame
					var slip := RADIUS * angle_difference(angle, screen_angle(wheel)) - (wheel.global_position.x - x)
					worst = maxf(worst, absf(slip))
					rolled += 1
			expect(all_finite([wheel]), "wheel finite")
			var name := "%s%s" % ["local" if space == 1 else "global", " mirrored" if mirrored else ""]
			expect(worst < 1e-3, "%s: the wheel rolls without slip on a cart that turns (worst %s px a frame)" % [name, worst])
			report.append("%s %.6f px" % [name, worst])
			c["level"].free()
	print("CopyTransform2D README wheel (rotation from x, 1 / %d), cart driving %d px a frame, turning with scale.x = -1 and back: worst slip per frame: %s" % [RADIUS, SPEED, ", ".join(report)])


## A crank (a bone, bone angle != 0) turned 0.1 rad a frame three full turns forward and one and a half back drives a
## piston (a sibling bone) through a remap: x = 10 px per radian of the crank, in the rest space (the README's piston:
## the stroke added to the piston's rest) and in the local space (the offset is the piston's rest). The piston never
## jumps more than the crank's step allows and its x follows the crank's whole turn; the mirrored twin writes the same
## local values (the mirror image); reset() starts again from the wrapped reading. The same remap in the global space
## (no offset) is continuous too but, reading world numbers, is no mirror image in the twin: the README's advice.
func test_a_crank_drives_a_piston_smoothly_over_several_turns() -> void:
	var report := []
	for space in [2, 1, 0]:
		var worst_jump := 0.0
		var worst_follow := 0.0
		var worst_mirror := 0.0
		var pistons := []
		var cranks := []
		var copies := []
		for mirrored in [false, true]:
			var character := Node2D.new()
			character.position = Vector2(300 + 200 * int(mirrored), 300)
			character.scale = Vector2(-1, 1) if mirrored else Vector2.ONE
			add_child(character)
			var skeleton := Skeleton2D.new()
			character.add_child(skeleton)
			var crank := Rig.bone(skeleton, "Crank", Vector2(0, 0), 12.0, 0.3, 0.2)
			var piston := Rig.bone(skeleton, "Piston", Vector2(40, -6), 30.0, -0.2, 0.1)
			var drive: Node2D = ClassDB.instantiate("CopyTransform2D")
			drive.update_mode = 2
			drive.source = crank
			drive.bone = piston
			drive.space = space
			drive.rotation_amount = 0.0
			drive.x_from = 0                       # FROM_ROTATION
			drive.x_factor = STROKE
			drive.y_factor = 0.0
			if space == 1:
				drive.position_offset = piston.position
			character.add_child(drive)
			pistons.append(piston)
			cranks.append(crank)
			copies.append(drive)
		for k in 2:
			expect(copies[k].solve(), "piston solved")
		# The rest space reads the crank's turn since its rest, the local space its rotation (0.2 at the start).
		var base := 0.0 if space == 2 else 0.2
		var start: float = pistons[0].position.x
		var turned := 0.0
		var last_x: float = start
		var steps := []
		for i in int(3.0 * TAU / CRANK_STEP):
			steps.append(CRANK_STEP)
		for i in int(1.5 * TAU / CRANK_STEP):
			steps.append(-CRANK_STEP)
		for step in steps:
			turned += step
			for k in 2:
				cranks[k].rotation = 0.2 + turned
				expect(copies[k].solve(), "piston solved")
			var x: float = pistons[0].position.x
			worst_jump = maxf(worst_jump, absf(x - last_x))
			worst_follow = maxf(worst_follow, absf(x - (start + STROKE * turned)))
			worst_mirror = maxf(worst_mirror, pistons[0].position.distance_to(pistons[1].position))
			last_x = x
		var name: String = ["global", "local", "rest"][space]
		if space == 0:
			expect(worst_jump < STROKE * CRANK_STEP + 1e-3, "global: the piston moves at most %s px a frame (worst %s px)" % [STROKE * CRANK_STEP, worst_jump])
			expect(worst_mirror > 1.0, "global: a remap reads world numbers, no mirror image (%s px)" % worst_mirror)
			report.append("global: largest jump %.4f px, off the mirror image by up to %.1f px" % [worst_jump, worst_mirror])
			for piston in pistons:
				piston.get_parent().get_parent().free()
			continue
		expect(worst_jump < STROKE * CRANK_STEP + 1e-3, "%s: the piston moves at most %s px a frame (worst %s px)" % [name, STROKE * CRANK_STEP, worst_jump])
		expect(worst_follow < 1e-3, "%s: the piston's x is 10 px per radian of the crank's whole turn (worst %s px off)" % [name, worst_follow])
		expect(worst_mirror < 1e-4, "%s: the mirrored twin's piston has the same local position (worst %s px)" % [name, worst_mirror])
		expect(pistons[0].position.y == pistons[0].rest.origin.y, "%s: the piston keeps its rest y" % name)
		if copies[0].has_method("reset"):
			copies[0].reset()
			expect(copies[0].solve(), "solved after reset")
			var wrapped := wrapf(base + turned, -PI, PI) - base
			expect_near(pistons[0].position.x, start + STROKE * wrapped, 1e-3, "%s: after reset() the piston starts from the wrapped reading" % name)
			# From there it counts on: a whole turn more is a whole turn's stroke more, until the node is disabled.
			for i in 63:
				turned += CRANK_STEP
				cranks[0].rotation = 0.2 + turned
				copies[0].solve()
			expect_near(pistons[0].position.x, start + STROKE * (wrapped + 63 * CRANK_STEP), 1e-3, "%s: counting on after reset()" % name)
			copies[0].enabled = false
			copies[0].enabled = true
			expect(copies[0].solve(), "solved after enabling")
			expect_near(pistons[0].position.x, start + STROKE * (wrapf(base + turned, -PI, PI) - base), 1e-3, "%s: enabled again, the piston starts from the wrapped reading" % name)
		report.append("%s: largest jump %.4f px, off the whole turn %.6f px, mirror %.6f px" % [name, worst_jump, worst_follow, worst_mirror])
		for piston in pistons:
			piston.get_parent().get_parent().free()
	print("CopyTransform2D piston driven by a crank (x = %d px per radian, %.1f rad a frame, 3 turns forward and 1.5 back): %s" % [STROKE, CRANK_STEP, "; ".join(report)])


## The README's eyes and weapon on Characters.with_followers (global copies: each eye at its socket in the head's frame
## turned by the head, the sword at the grip in the forearm's frame), the forearm put on a moving ball by a
## TwoBoneIk2D that runs before the sword's copy in tree order, the character turning with scale.x = -1 at frame 12
## and back at frame 30: every frame each follower is where its source puts it (its x axis along the source's turned
## by the offset, its origin on the offset point), the sword in the hand the IK solved that same frame.
func test_the_eyes_and_the_weapon_follow_through_a_turn() -> void:
	var c := Characters.with_followers(self, Vector2(400, 300), false)
	var character: Node2D = c["character"]
	var bones: Dictionary = c["bones"]
	var ball := make_target(Vector2(434, 264))
	var arm: Node2D = ClassDB.instantiate("TwoBoneIk2D")
	arm.root_bone = bones["upper"]
	arm.tip_bone = bones["fore"]
	arm.target = ball
	character.add_child(arm)
	character.move_child(c["copies"]["Sword"], -1)      # below the arm's IK: the copy sees the solved hand
	var worst := [0.0, 0.0]
	var worst_hand := 0.0
	for frame in 45:
		if frame == 12 or frame == 30:
			character.scale.x = -character.scale.x
		ball.global_position = Vector2(400 + character.scale.x * (34 + 6 * sin(frame * 0.3)), 256 + 8 * cos(frame * 0.2))
		await get_tree().process_frame
		if frame < 2:
			continue
		for copy in c["copies"].values():
			var e := copy_error(copy)
			worst[0] = maxf(worst[0], e[0])
			worst[1] = maxf(worst[1], e[1])
		worst_hand = maxf(worst_hand, bone_end(bones["fore"]).distance_to(ball.global_position))
	expect(all_finite(all_bones(c)), "every bone finite")
	expect(worst[0] < 1e-4, "eyes and sword turned with their sources through the turns (worst %s rad)" % worst[0])
	expect(worst[1] < 1e-2, "eyes in their sockets and the sword in the grip through the turns (worst %s px)" % worst[1])
	expect(worst_hand < 0.5, "the IK put the hand on the ball (worst %s px)" % worst_hand)
	print("CopyTransform2D eyes and sword (global, offsets in the source's frame) through two turns: worst %.7f rad, %.6f px; hand on the ball within %.4f px" % [worst[0], worst[1], worst_hand])
	character.free()
	ball.free()


static func all_bones(c: Dictionary) -> Array:
	var b: Dictionary = c["bones"]
	return [b["torso"], b["head"], b["upper"], b["fore"], b["eyes"][0], b["eyes"][1], b["sword"]]


## The README's pupils: a LookAt2D aims the left eye at a target, the right eye copies its turn in the local space
## (both eyes children of the head, bone angles != 0), on a character that turns with scale.x = -1 mid-run and in a
## mirrored twin: the two eyes always look the same way, the left one at the target, the twin the mirror image.
func test_the_pupils_look_the_same_way_through_a_turn() -> void:
	var twins := []
	for mirrored in [false, true]:
		var character := Node2D.new()
		character.position = Vector2(300 + 200 * int(mirrored), 300)
		character.scale = Vector2(-1, 1) if mirrored else Vector2.ONE
		add_child(character)
		var skeleton := Skeleton2D.new()
		character.add_child(skeleton)
		var head := Rig.bone(skeleton, "Head", Vector2.ZERO, 30.0, -PI / 2 + 0.2, 0.1)
		var eye_l := Rig.bone(head, "EyeL", Vector2(-6, -20), 5.0, 0.3, 0.2)
		var eye_r := Rig.bone(head, "EyeR", Vector2(8, -21), 5.0, 0.3, -0.4)
		var target := Node2D.new()
		character.add_child(target)
		var look: Node2D = ClassDB.instantiate("LookAt2D")
		look.target = target
		look.bone = eye_l
		character.add_child(look)
		var pair: Node2D = ClassDB.instantiate("CopyTransform2D")
		pair.source = eye_l
		pair.bone = eye_r
		pair.space = 1                            # SPACE_LOCAL
		pair.position_amount = 0.0
		character.add_child(pair)
		twins.append({"character": character, "head": head, "eyes": [eye_l, eye_r], "target": target})
	var worst_parallel := 0.0
	var worst_aim := 0.0
	var worst_mirror := 0.0
	for frame in 40:
		for twin in twins:
			if frame == 15 or frame == 28:
				twin["character"].scale.x = -twin["character"].scale.x
			twin["head"].rotation = 0.1 + 0.4 * sin(frame * 0.2)
			twin["target"].position = Vector2(60 * cos(frame * 0.15), -40 + 30 * sin(frame * 0.25))
		await get_tree().process_frame
		if frame < 2:
			continue
		for twin in twins:
			var eyes: Array = twin["eyes"]
			worst_parallel = maxf(worst_parallel, absf(eyes[0].global_transform.x.angle_to(eyes[1].global_transform.x)))
			var aim: Vector2 = eyes[0].global_transform.basis_xform(Vector2.from_angle(eyes[0].get_bone_angle()))
			worst_aim = maxf(worst_aim, absf(aim.angle_to(twin["target"].global_position - eyes[0].global_position)))
		var a: Node2D = twins[0]["character"]
		var b: Node2D = twins[1]["character"]
		for k in 2:
			var pa: Vector2 = a.global_transform.affine_inverse() * bone_end(twins[0]["eyes"][k])
			var pb: Vector2 = b.global_transform.affine_inverse() * bone_end(twins[1]["eyes"][k])
			worst_mirror = maxf(worst_mirror, pa.distance_to(pb))
	expect(worst_parallel < 1e-4, "the eyes look the same way through the turns (worst %s rad)" % worst_parallel)
	expect(worst_aim < 1e-3, "the left eye looks at the target (worst %s rad)" % worst_aim)
	expect(worst_mirror < 1e-3, "the mirrored twin is the mirror image (worst %s px)" % worst_mirror)
	print("CopyTransform2D pupils (LookAt2D on one eye, the other copying it in the local space) through two turns, plain and mirrored: eyes parallel within %.7f rad, aim %.7f rad, mirror %.6f px" % [worst_parallel, worst_aim, worst_mirror])
	for twin in twins:
		twin["character"].free()
