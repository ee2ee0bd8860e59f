extends "res://lib/test_case.gd"
## PathChain2D over sharp corners (curve points without handles, as the Path2D editor adds them), 90 to 176
## degrees: sliding over one in follow mode and a corner moving under a fixed root in fit mode, each beside a copy
## flipped with scale.x = -1. No joint moves more than 4 times the step (the offset's, or the corner's) in a frame
## for corners up to 170 degrees; the chain arrives back on the curve; the flipped copy is the mirror image; reset()
## snaps, and so does a jump of the offset. On a smooth closed loop that moves and turns, nothing travels.

## The chain's bones (px), local rotations (radians, drawn curled) and bone angle (radians).
const LENGTHS := [24.0, 22.0, 20.0, 19.0, 18.0, 16.0]
const ROTATIONS := [0.4, -0.3, 0.5, -0.2, 0.3, -0.4]
const BONE_ANGLE := 0.3
const CORNERS := [90.0, 120.0, 160.0, 170.0, 176.0]
## The offset's (follow) or the corner's (fit) step per frame, px: 120 px/s at 60 frames a second.
const STEP := 2.0
## Slide frames, then frames with everything still.
const FRAMES := 135
const HOLD := 150


## An open curve along +X to `corner` (px), then 300 px on, turned by `degrees` (toward +Y, down on screen).
static func corner_curve(corner: Vector2, degrees: float) -> Curve2D:
	var out := corner + Vector2.from_angle(deg_to_rad(degrees)) * 300.0
	return Characters.curve_through([Vector2.ZERO, corner, out])


## Slides a chain and its flipped twin over a corner turned by `degrees`: follow (the offset up by STEP a frame,
## the corner at x = 200) or fit (offset 40, the root above the curve's start, the corner moving from x = 340 toward
## it by STEP a frame), then holds still. Solved inside physics frames (delta 1/60 s). Returns {move: the largest
## move of any joint in a frame (px), tip: the tip's, mirror: the largest mirror difference (px), error: last_error
## at the end (px), off: the largest joint distance from where the fit wants it at the end (px)}.
func slide(degrees: float, follow: bool) -> Dictionary:
	var pair := []
	for flipped in [false, true]:
		var at := Vector2(800, 200) if flipped else Vector2(100, 200)
		var corner := Vector2(200, 0) if follow else Vector2(340, 0)
		var snake := Characters.on_path(self, at, flipped, LENGTHS, ROTATIONS, BONE_ANGLE, corner_curve(corner, degrees))
		snake["skeleton"].position = Vector2(10, -30)
		snake["chain"].mode = PathChain2D.MODE_FOLLOW if follow else PathChain2D.MODE_FIT
		snake["chain"].offset = 0.0 if follow else 40.0
		pair.append(snake)
	var result := {"move": 0.0, "tip": 0.0, "mirror": 0.0}
	var last := joints_of(pair[0]["bones"])
	for frame in FRAMES + HOLD:
		await get_tree().physics_frame
		var step := mini(frame, FRAMES - 1) * STEP
		for snake in pair:
			if follow:
				snake["chain"].offset = step
			else:
				snake["path"].curve.set_point_position(1, Vector2(340.0 - step, 0.0))
			expect(snake["chain"].solve(), "solved")
		var joints := joints_of(pair[0]["bones"])
		if frame > 0:
			for i in joints.size():
				result["move"] = maxf(result["move"], joints[i].distance_to(last[i]))
			result["tip"] = maxf(result["tip"], joints[-1].distance_to(last[-1]))
		result["mirror"] = maxf(result["mirror"], largest_mirror_distance(joints, joints_of(pair[1]["bones"]), 450.0))
		last = joints
	result["error"] = maxf(pair[0]["chain"].last_error, pair[1]["chain"].last_error)
	for snake in pair:
		snake["character"].queue_free()
	return result


func test_no_joint_jumps_over_a_sharp_corner_and_the_flipped_twin_is_the_mirror_image() -> void:
	await get_tree().physics_frame
	expect(Engine.is_in_physics_frame(), "solving inside a physics frame (delta 1/60 s)")
	for follow in [true, false]:
		for degrees in CORNERS:
			var r: Dictionary = await slide(degrees, follow)
			var steps: float = r["move"] / STEP
			print("PathChain2D %s over a %d-degree corner (step %.0f px): largest joint move %.2f px (%.2f steps), tip %.2f px, mirror %.5f px, last_error at rest %.4f px" % ["follow" if follow else "fit, moving corner", degrees, STEP, r["move"], steps, r["tip"], r["mirror"], r["error"]])
			if degrees <= 170.0:
				expect(steps <= 4.0, "%d degrees (%s): no joint moves more than 4 steps a frame (%.2f)" % [degrees, "follow" if follow else "fit", steps])
			expect(r["mirror"] <= 0.05, "the flipped twin is the mirror image (%s px)" % r["mirror"])
			expect(r["error"] <= 0.01, "at rest every joint is back where the fit wants it (last_error %s px)" % r["error"])


func test_reset_snaps_and_a_jump_of_the_offset_is_followed_at_once() -> void:
	var snake := Characters.on_path(self, Vector2(100, 200), false, LENGTHS, ROTATIONS, BONE_ANGLE, corner_curve(Vector2(200, 0), 160.0))
	var chain: Node2D = snake["chain"]
	chain.mode = PathChain2D.MODE_FOLLOW
	await get_tree().physics_frame
	# Onto the corner: a joint's place jumps, and it travels.
	var travelling := 0.0
	for frame in 120:
		chain.offset = frame * STEP
		chain.solve()
		travelling = maxf(travelling, chain.last_error)
	expect(travelling > 5.0, "a joint travelled over the corner (last_error up to %s px)" % travelling)
	# A jump of the offset moves the curve under the chain as far: it follows at once.
	chain.offset = 30.0
	chain.solve()
	expect(chain.last_error <= 0.01, "a jump of the offset snaps (last_error %s px)" % chain.last_error)
	# reset(): the next solve places every joint where the fit wants it, however little moved.
	var offset := 30.0
	while chain.last_error <= 1.0 and offset < 300.0:
		offset += STEP
		chain.offset = offset
		chain.solve()
	var held: float = chain.last_error
	chain.reset()
	chain.offset = offset + STEP
	chain.solve()
	print("PathChain2D reset: last_error %.3f px travelling, %.5f px after reset()" % [held, chain.last_error])
	expect(held > 1.0, "a step onto the corner sets a joint travelling (%s px)" % held)
	expect(chain.last_error <= 0.01, "after reset() every joint is where the fit wants it (%s px)" % chain.last_error)


func test_a_snake_on_a_moving_turning_closed_path_stays_on_it() -> void:
	# No corner: a smooth closed loop that moves and turns every frame while the snake slides along it. Nothing
	# jumps, so nothing travels: every joint stays on the curve.
	var pair := []
	for flipped in [false, true]:
		var snake := Characters.on_path(self, Vector2(800, 300) if flipped else Vector2(100, 300), flipped, LENGTHS, ROTATIONS, BONE_ANGLE, Characters.circle_curve(Vector2.ZERO, 120.0))
		snake["chain"].mode = PathChain2D.MODE_FOLLOW
		pair.append(snake)
	var worst := 0.0
	var error := 0.0
	var mirror := 0.0
	await get_tree().physics_frame
	for frame in 90:
		for snake in pair:
			snake["path"].position = Vector2(150, 0) + Vector2(sin(frame * 0.05), cos(frame * 0.07)) * 40.0
			snake["path"].rotation = frame * 0.02
			snake["chain"].offset = frame * STEP
			expect(snake["chain"].solve(), "solved")
			error = maxf(error, snake["chain"].last_error)
		var joints := joints_of(pair[0]["bones"])
		var dense := Characters.dense_curve(pair[0]["path"])
		for joint in joints:
			worst = maxf(worst, Characters.distance_from_curve(dense, joint))
		mirror = maxf(mirror, largest_mirror_distance(joints, joints_of(pair[1]["bones"]), 450.0))
	print("PathChain2D follow on a moving, turning closed loop (r 120 px), 90 frames: worst joint off the curve %.4f px, last_error %.5f px, mirror %.5f px" % [worst, error, mirror])
	expect(worst <= 0.5, "every joint on the curve (%s px)" % worst)
	expect(error <= 0.01, "nothing travels: last_error ~0 (%s px)" % error)
	expect(mirror <= 0.05, "the flipped twin is the mirror image (%s px)" % mirror)
