extends "res://lib/test_case.gd"
## PathChain2D on real Skeleton2D chains (bone angles != 0, a mirrored copy, an AnimationPlayer): every joint on the
## curve with exact lengths, the mirror image, follow mode and what it puts back, the curve's ends and closed
## curves, the tip along the tangent, angle limits and last_error, the curve sampled once per change, the order
## after IK nodes, and bad input (one message per problem, no NaN, no allocation per frame).

## The snake's bones (px), local rotations (radians, drawn curled) and bone angle (radians).
const LENGTHS := [40.0, 36.0, 32.0, 30.0, 28.0, 26.0, 24.0, 22.0]
const ROTATIONS := [0.5, -0.4, 0.6, -0.3, 0.2, -0.5, 0.4, -0.2]
const BONE_ANGLE := 0.3


## A snake (Characters.on_path: LENGTHS, ROTATIONS, BONE_ANGLE) at `at` following `curve` (an S by default).
func make_snake(at: Vector2, flipped := false, curve: Curve2D = null, update_mode := 2) -> Dictionary:
	return Characters.on_path(self, at, flipped, LENGTHS, ROTATIONS, BONE_ANGLE, curve if curve else Characters.s_curve(), update_mode)


## The largest distance (px) of a joint of `bones` (origins, then the tip's end) from the curve `dense`
## (Characters.dense_curve), from the `first` joint on.
func worst_off_curve(bones: Array, dense: PackedVector2Array, first := 0) -> float:
	var worst := 0.0
	var joints := joints_of(bones)
	for i in range(first, joints.size()):
		worst = maxf(worst, Characters.distance_from_curve(dense, joints[i]))
	return worst


## The largest change (px) of a bone's length: each origin to the next (or to the tip's end), against `lengths`.
func worst_length_error(bones: Array, lengths: Array) -> float:
	var joints := joints_of(bones)
	var worst := 0.0
	for i in lengths.size():
		worst = maxf(worst, absf(joints[i].distance_to(joints[i + 1]) - lengths[i]))
	return worst


func test_fit_lays_every_joint_on_the_curve_with_exact_lengths_and_the_mirror_image() -> void:
	var plain := make_snake(Vector2(150, 300))
	var flipped := make_snake(Vector2(1050, 300), true)
	var dense := Characters.dense_curve(plain["path"])
	var dense_flipped := Characters.dense_curve(flipped["path"])
	for snake in [plain, flipped]:
		expect(snake["chain"].solve(), "solved")
	var off := worst_off_curve(plain["bones"], dense)
	var off_flipped := worst_off_curve(flipped["bones"], dense_flipped)
	var lengths := maxf(worst_length_error(plain["bones"], LENGTHS), worst_length_error(flipped["bones"], LENGTHS))
	var mirror := largest_mirror_distance(joints_of(plain["bones"]), joints_of(flipped["bones"]), 600.0)
	print("PathChain2D fit (8 bones, bone_angle 0.3, S-curve): worst joint off the curve %.4f px (mirrored copy %.4f px), worst length change %.6f px, mirror difference %.5f px, last_error %.6f px" % [off, off_flipped, lengths, mirror, plain["chain"].last_error])
	expect(off <= 0.5 and off_flipped <= 0.5, "every joint within 0.5 px of the curve (%s, %s)" % [off, off_flipped])
	expect(lengths <= 1e-3, "lengths exact (%s px)" % lengths)
	expect(mirror <= 0.05, "the mirrored copy is the mirror image (%s px)" % mirror)
	expect(plain["chain"].last_error >= 0.0 and plain["chain"].last_error < 0.01, "last_error ~0 (%s)" % plain["chain"].last_error)
	expect(plain["chain"].last_iterations == 1, "one pass")
	expect(plain["chain"].get_bone_count() == LENGTHS.size(), "bone count")


func test_runs_after_the_animation_every_frame_and_blends_by_weight() -> void:
	var plain := make_snake(Vector2(150, 300), false, null, 0)
	var flipped := make_snake(Vector2(1050, 300), true, null, 0)
	# An animation turns every bone of both snakes; the fit runs after it in the same frame.
	for snake in [plain, flipped]:
		var player := Animations.turning_chain("wiggle", "Skeleton", ROTATIONS, 0.8)
		snake["character"].add_child(player)
		player.play("wiggle")
	var dense := Characters.dense_curve(plain["path"])
	var worst := 0.0
	var mirror := 0.0
	for frame in 30:
		await get_tree().process_frame
		if frame < 2:
			continue
		worst = maxf(worst, worst_off_curve(plain["bones"], dense))
		mirror = maxf(mirror, largest_mirror_distance(joints_of(plain["bones"]), joints_of(flipped["bones"]), 600.0))
	print("PathChain2D under an AnimationPlayer, 28 frames: worst joint off the curve %.4f px, mirror difference %.5f px" % [worst, mirror])
	expect(worst <= 0.5, "every frame every joint on the curve after the animation (%s px)" % worst)
	expect(mirror <= 0.05, "mirror image every frame (%s px)" % mirror)
	# weight 0: the animation's pose shows; weight 0.5: the root bone halfway (its parent does not move).
	var chain: Node2D = plain["chain"]
	var root: Bone2D = plain["bones"][0]
	chain.weight = 0.0
	await get_tree().process_frame
	await get_tree().process_frame
	var animated := root.rotation
	chain.update_mode = 2
	chain.weight = 1.0
	root.rotation = animated
	chain.solve()
	var fitted := root.rotation
	root.rotation = animated
	chain.weight = 0.5
	chain.solve()
	expect_near(angle_difference(animated, root.rotation), angle_difference(animated, fitted) * 0.5, 1e-4, "weight 0.5 turns the root halfway from the animated pose")


func test_follow_mode_slides_the_root_along_and_puts_it_back() -> void:
	var plain := make_snake(Vector2(150, 300))
	var flipped := make_snake(Vector2(1050, 300), true)
	var root: Bone2D = plain["bones"][0]
	var authored := root.position
	var dense := Characters.dense_curve(plain["path"])
	var curve: Curve2D = plain["path"].curve
	for snake in [plain, flipped]:
		snake["chain"].mode = PathChain2D.MODE_FOLLOW
	var worst_root := 0.0
	var worst := 0.0
	var mirror := 0.0
	for step in 20:
		var offset := 20.0 + step * 25.0
		for snake in [plain, flipped]:
			snake["chain"].offset = offset
			expect(snake["chain"].solve(), "follow solved")
		var on_curve: Vector2 = plain["path"].to_global(curve.sample_baked(offset))
		worst_root = maxf(worst_root, root.global_position.distance_to(on_curve))
		worst = maxf(worst, worst_off_curve(plain["bones"], dense))
		mirror = maxf(mirror, largest_mirror_distance(joints_of(plain["bones"]), joints_of(flipped["bones"]), 600.0))
	print("PathChain2D follow, offset 20..495 px: root off its curve point %.4f px, worst joint off the curve %.4f px, mirror %.5f px" % [worst_root, worst, mirror])
	expect(worst_root <= 0.05, "the root moves onto the curve at offset (%s px)" % worst_root)
	expect(worst <= 0.5, "every joint on the curve (%s px)" % worst)
	expect(mirror <= 0.05, "mirror image (%s px)" % mirror)
	var chain: Node2D = plain["chain"]
	# Disabled: the authored position comes back.
	chain.enabled = false
	chain.update_mode = 0
	await get_tree().process_frame
	expect_vec_near(root.position, authored, 1e-5, "disabled: the root's authored position is back")
	# A position someone else sets while following becomes the authored one.
	chain.enabled = true
	chain.update_mode = 2
	chain.solve()
	expect(root.position.distance_to(authored) > 10.0, "following again")
	root.position = Vector2(5, 7)
	chain.solve()
	expect(root.position.distance_to(Vector2(5, 7)) > 10.0, "follows from the new position")
	chain.mode = PathChain2D.MODE_FIT
	chain.solve()
	expect_vec_near(root.position, Vector2(5, 7), 1e-5, "back to fit mode: the new authored position is back")
	# Leaving the tree puts it back too.
	chain.mode = PathChain2D.MODE_FOLLOW
	chain.solve()
	var character: Node2D = plain["character"]
	character.remove_child(chain)
	expect_vec_near(root.position, Vector2(5, 7), 1e-5, "leaving the tree: the authored position is back")
	character.add_child(chain)


func test_open_ends_closed_curves_and_the_tip_along_the_tangent() -> void:
	# A chain longer than a short open curve: past its end along its last direction.
	var short := Characters.curve_through([Vector2.ZERO, Vector2(100, 0), Vector2(160, 60)], [Vector2(30, 0), Vector2(30, 0), Vector2(20, 20)])
	var snake := make_snake(Vector2(150, 200), false, short)
	expect(snake["chain"].solve(), "solved")
	var curve: Curve2D = snake["path"].curve
	var baked := curve.get_baked_points()
	var end: Vector2 = snake["path"].to_global(baked[-1])
	var direction: Vector2 = (baked[-1] - baked[-2]).normalized()
	var beyond := 0.0
	for joint in joints_of(snake["bones"]):
		if (joint - end).dot(direction) > 1.0:
			beyond = maxf(beyond, absf((joint - end).cross(direction)))
	print("PathChain2D past an open curve's end: worst joint off the end's tangent line %.5f px, lengths %.6f px" % [beyond, worst_length_error(snake["bones"], LENGTHS)])
	expect(beyond <= 0.05, "past the end on the tangent line (%s px)" % beyond)
	expect(worst_length_error(snake["bones"], LENGTHS) <= 1e-3, "lengths exact past the end")
	# A closed circle through the root, shorter than the chain: it wraps round (the chain enters where the root is).
	var loop := Characters.circle_curve(Vector2(0, -30), 30.0)
	var wrapped := make_snake(Vector2(600, 300), false, loop)
	wrapped["chain"].offset = loop.get_closest_offset(Vector2.ZERO)
	expect(wrapped["chain"].solve(), "solved on the loop")
	var center: Vector2 = wrapped["path"].to_global(Vector2(0, -30))
	var off_circle := 0.0
	for joint in joints_of(wrapped["bones"]):
		off_circle = maxf(off_circle, absf(joint.distance_to(center) - 30.0))
	print("PathChain2D around a closed circle (r 30 px, 188 px round, chain 238 px): worst joint off the circle %.4f px" % off_circle)
	expect(off_circle <= 0.5, "wrapped around the closed curve (%s px)" % off_circle)
	# The tip along the curve's direction.
	var tangent := make_snake(Vector2(150, 450))
	tangent["chain"].tip_follows_tangent = true
	expect(tangent["chain"].solve(), "solved with the tip along the tangent")
	var tip: Bone2D = tangent["bones"][-1]
	var along: Vector2 = (bone_end(tip) - tip.global_position).normalized()
	var local_origin: Vector2 = tangent["path"].to_local(tip.global_position)
	var offset: float = tangent["path"].curve.get_closest_offset(local_origin)
	var ahead: Vector2 = tangent["path"].curve.sample_baked(offset + 2.0)
	var behind: Vector2 = tangent["path"].curve.sample_baked(offset - 2.0)
	var curve_direction: Vector2 = (ahead - behind).normalized()
	expect(absf(along.angle_to(curve_direction)) < 0.02, "the tip lies along the curve (%s rad off)" % along.angle_to(curve_direction))


func test_angle_limits_hold_and_last_error_says_how_far_off() -> void:
	var snake := make_snake(Vector2(150, 300))
	var chain: Node2D = snake["chain"]
	expect(chain.solve(), "solved")
	expect(chain.last_error < 0.01, "free: on the curve (%s px)" % chain.last_error)
	# Bone 3 may barely turn from its parent: the S's bend needs more.
	var bone: Bone2D = snake["bones"][3]
	var fitted := bone.rotation
	chain.set_angle_limits(3, fitted + 0.15, fitted + 0.25)
	expect(chain.solve(), "solved with a limit")
	var r := wrapf(bone.rotation, -PI, PI)
	expect(r >= fitted + 0.15 - 1e-4 and r <= fitted + 0.25 + 1e-4, "the limit holds (%s in [%s, %s])" % [r, fitted + 0.15, fitted + 0.25])
	var dense := Characters.dense_curve(snake["path"])
	var off := worst_off_curve(snake["bones"], dense)
	print("PathChain2D with a conflicting limit: last_error %.3f px, worst joint off the curve %.3f px, tip off %.4f px" % [chain.last_error, off, Characters.distance_from_curve(dense, bone_end(snake["bones"][-1]))])
	expect(chain.last_error > 1.0, "last_error says the chain is off (%s px)" % chain.last_error)
	expect(chain.last_error >= off - 0.05, "last_error bounds the distance from the curve (%s vs %s)" % [chain.last_error, off])
	expect(worst_length_error(snake["bones"], LENGTHS) <= 1e-3, "lengths exact")
	# The next bones meet the curve again.
	expect(Characters.distance_from_curve(dense, bone_end(snake["bones"][-1])) <= 0.5, "the tip back on the curve")


func test_the_curve_is_sampled_once_per_change() -> void:
	var snake := make_snake(Vector2(150, 300))
	var chain: Node2D = snake["chain"]
	var curve: Curve2D = snake["path"].curve
	chain.solve()
	var tip: Bone2D = snake["bones"][-1]
	var before := bone_end(tip)
	# Edited without its signals, the curve is not sampled again: the chain keeps the old fit.
	curve.set_block_signals(true)
	curve.set_point_position(1, Vector2(400, 220))
	curve.set_block_signals(false)
	chain.solve()
	expect_vec_near(bone_end(tip), before, 1e-3, "an edit that emitted no `changed` is not seen (sampled only on change)")
	# Once it says it changed, the new curve is fitted.
	curve.emit_changed()
	chain.solve()
	var dense := Characters.dense_curve(snake["path"])
	expect(bone_end(tip).distance_to(before) > 5.0, "after `changed` the new curve is fitted")
	expect(worst_off_curve(snake["bones"], dense) <= 0.5, "on the new curve")
	# An ordinary edit emits `changed` itself; a replaced curve is seen at once.
	curve.set_point_position(1, Vector2(400, 60))
	chain.solve()
	expect(worst_off_curve(snake["bones"], Characters.dense_curve(snake["path"])) <= 0.5, "an edit is followed")
	snake["path"].curve = Characters.s_curve()
	chain.solve()
	expect(worst_off_curve(snake["bones"], Characters.dense_curve(snake["path"])) <= 0.5, "a replaced curve is followed")
	# The old curve no longer drives anything: editing it changes nothing.
	var now := bone_end(tip)
	curve.set_point_position(1, Vector2(400, -100))
	chain.solve()
	expect_vec_near(bone_end(tip), now, 1e-3, "the replaced curve is let go")
	expect(curve.get_signal_connection_list("changed").is_empty(), "and no longer watched")


## Baking a PathChain2D in follow mode (addons/reach2d/editor/bake.gd): an animation slides `offset` along the curve
## and turns the bones; the bake keys every bone's rotation and the root bone's position, so the replay with the
## node disabled puts every joint where the fit did.
func test_bake_keys_the_follow_mode_root_position() -> void:
	const Bake := preload("res://addons/reach2d/editor/bake.gd")
	for flipped in [false, true]:
		var snake := make_snake(Vector2(150 if not flipped else 1050, 300), flipped)
		var chain: Node2D = snake["chain"]
		chain.mode = PathChain2D.MODE_FOLLOW
		var player := Animations.turning_chain("slide", "Skeleton", ROTATIONS, 0.6)
		var animation := player.get_animation("slide")
		var track := animation.add_track(Animation.TYPE_VALUE)
		animation.track_set_path(track, "PathChain2D:offset")
		animation.track_insert_key(track, 0.0, 0.0)
		animation.track_insert_key(track, 1.0, 400.0)
		snake["character"].add_child(player)
		var bones: Array = snake["bones"]
		var result := Bake.bake_to_animation(chain, player, &"slide", 1.0 / 20.0, &"slide_baked")
		if not expect(result["ok"], "flipped=%s: the bake succeeds (%s)" % [flipped, result]):
			continue
		var baked: Animation = player.get_animation(&"slide_baked")
		expect(baked.find_track(NodePath("Skeleton/bone_0:position"), Animation.TYPE_VALUE) >= 0, "flipped=%s: the root's position is keyed" % flipped)
		# The fit's joints at each key time, then the replay's with the node off.
		var times: Array = []
		for k in 21:
			times.append(k / 20.0)
		var fitted := []
		player.assigned_animation = "slide"
		for t in times:
			player.seek(t, true)
			chain.solve()
			fitted.append(joints_of(bones))
		chain.enabled = false
		player.assigned_animation = "slide_baked"
		var worst := 0.0
		for k in times.size():
			player.seek(times[k], true)
			worst = maxf(worst, largest_distance(joints_of(bones), fitted[k]))
		print("PathChain2D follow-mode bake flipped=%s: %d keys, replay worst joint %.5f px" % [flipped, times.size(), worst])
		expect(worst < 0.05, "flipped=%s: the replay puts every joint where the fit did (worst %.4f px)" % [flipped, worst])
		snake["character"].free()
