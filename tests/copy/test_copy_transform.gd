extends "res://lib/test_case.gd"
## CopyTransform2D (issue 32): a bone that follows another node. Measured on Characters.with_followers (bone angles
## != 0, an AnimationPlayer turning the sources, a flipped twin): a plain global copy exact (rotations to 1e-5 rad,
## origins on the offset point), the flipped character the mirror image (0.05 px); the local and rest spaces (a flip
## baked into a rest); a remap (a wheel turning with its cart's x); amounts and weight blending with an animation
## without creeping.

const FRAMES := 40
## The plain and the flipped character stand either side of x = AXIS.
const AXIS := 500.0


## Every bone of a with_followers character, in a fixed order.
static func all_bones(c: Dictionary) -> Array:
	var b: Dictionary = c["bones"]
	return [b["torso"], b["head"], b["upper"], b["fore"], b["eyes"][0], b["eyes"][1], b["sword"]]


## Each bone's origin and drawn end, global.
static func points_of(bones: Array) -> PackedVector2Array:
	var out := PackedVector2Array()
	for bone in bones:
		out.append(bone.global_position)
		out.append(bone_end(bone))
	return out


func test_a_plain_global_copy_follows_exactly_under_animation() -> void:
	var worst := [0.0, 0.0]
	for flipped in [false, true]:
		var c := Characters.with_followers(self, Vector2(AXIS - 200 + 400 * int(flipped), 300), flipped)
		var head: Bone2D = c["bones"]["head"]
		var start := head.rotation
		for frame in FRAMES:
			await get_tree().process_frame
			for copy in c["copies"].values():
				var e := copy_error(copy)
				worst[0] = maxf(worst[0], e[0])
				worst[1] = maxf(worst[1], e[1])
			expect(all_finite(all_bones(c)), "flipped=%s frame %d: every bone finite" % [flipped, frame])
		expect(absf(head.rotation - start) > 0.1, "flipped=%s: the animation turned the head" % flipped)
		for copy in c["copies"].values():
			expect(copy.last_error == 0.0 and copy.last_iterations == 1, "%s copied (last_error %s)" % [copy.name, copy.last_error])
		c["character"].free()
	expect(worst[0] < 1e-5, "copied rotations exact to 1e-5 rad: worst %s" % worst[0])
	expect(worst[1] < 1e-3, "copied origins on the offset point: worst %s px" % worst[1])
	print("CopyTransform2D global, plain and flipped, %d frames x 3 followers: worst rotation %.8f rad, worst origin %.8f px" % [FRAMES, worst[0], worst[1]])


func test_the_flipped_character_is_the_mirror_image() -> void:
	var plain := Characters.with_followers(self, Vector2(AXIS - 200, 300), false)
	var flipped := Characters.with_followers(self, Vector2(AXIS + 200, 300), true)
	var worst := 0.0
	var worst_rotation := 0.0
	for frame in FRAMES:
		await get_tree().process_frame
		worst = maxf(worst, largest_mirror_distance(points_of(all_bones(plain)), points_of(all_bones(flipped)), AXIS))
		for name in plain["copies"]:
			var a: Bone2D = plain["copies"][name].bone
			var b: Bone2D = flipped["copies"][name].bone
			worst_rotation = maxf(worst_rotation, absf(angle_difference(a.rotation, b.rotation)))
	expect(worst < 0.05, "the flipped character is the mirror image within 0.05 px: worst %s px" % worst)
	expect(worst_rotation < 1e-5, "the followers' local rotations agree: worst %s rad" % worst_rotation)
	print("CopyTransform2D mirror: %d frames, 7 bones' origins and ends, worst %.8f px from the mirror image; local rotations within %.8f rad" % [FRAMES, worst, worst_rotation])
	for c in [plain, flipped]:
		c["character"].free()


func test_the_local_space_copies_the_numbers_and_mirrors() -> void:
	var worst := 0.0
	for flipped in [false, true]:
		var c := Characters.with_followers(self, Vector2(AXIS - 200 + 400 * int(flipped), 300), flipped)
		var copy: Node2D = c["copies"]["EyeL"]
		copy.space = 1
		copy.rotation_offset = 0.4
		copy.position_offset = Vector2(3, -2)
		copy.scale_amount = 1.0
		copy.scale_offset = Vector2(0.5, 0.0)
		var head: Bone2D = c["bones"]["head"]
		var eye: Bone2D = c["bones"]["eyes"][0]
		for frame in 10:
			await get_tree().process_frame
			worst = maxf(worst, absf(angle_difference(eye.rotation, head.rotation + 0.4)))
			worst = maxf(worst, eye.position.distance_to(head.position + Vector2(3, -2)))
			worst = maxf(worst, eye.scale.distance_to(head.scale + Vector2(0.5, 0.0)))
		c["character"].free()
	expect(worst < 1e-5, "local: the eye takes the head's local values plus the offsets (worst %s)" % worst)


## A source bone and a follower, both flipped by their own scale.x = -1 in their rest and their pose, under a character
## that may be flipped too: the rest space copies the source's turn since its rest, not a half turn more.
func test_the_rest_space_copies_the_change_from_rest_under_every_flip() -> void:
	var worst := 0.0
	for character_flip in [1.0, -1.0]:
		for follower_scale in [Vector2(-1, 1), Vector2.ONE, Vector2(1, -1)]:
			var character := Node2D.new()
			character.position = Vector2(400, 300)
			character.scale = Vector2(character_flip, 1)
			add_child(character)
			var skeleton := Skeleton2D.new()
			character.add_child(skeleton)
			var source := Rig.bone(skeleton, "Source", Vector2(10, 0), 30.0, 0.4, 0.3)
			source.scale = Vector2(-1, 1)
			source.rest = source.transform
			var follower := Rig.bone(skeleton, "Follower", Vector2(-20, 5), 25.0, -0.6, 0.1)
			follower.scale = follower_scale
			follower.rest = follower.transform
			var copy: Node2D = ClassDB.instantiate("CopyTransform2D")
			copy.update_mode = 2
			copy.space = 2
			copy.position_amount = 0.0
			copy.source = source
			copy.bone = follower
			character.add_child(copy)
			for turn in [0.0, 0.25, -1.1, 2.5]:
				source.rotation = 0.3 + turn
				expect(copy.solve(), "rest: solved")
				worst = maxf(worst, absf(angle_difference(follower.rotation, 0.1 + turn)))
				expect(follower.scale == follower_scale, "rest: the follower's scale is untouched")
			character.free()
	expect(worst < 1e-5, "rest: the follower turns by the source's turn since its rest under every flip (worst %s rad)" % worst)
	print("CopyTransform2D rest space under flips (source and follower scale.x = -1, character flipped): worst %.8f rad" % worst)


## The wheel: a cart moving along x, its wheel bone turning by x / radius (a remap of the cart's local x into the
## wheel's rotation), on a cart that is flipped too: there the cart's own scale.x = -1 lies between the source's parent
## and the wheel's, so the rotation is written the other way round (it keeps its sense on screen: the wheel rolls).
func test_a_wheel_turns_with_its_cart_s_x() -> void:
	const RADIUS := 16.0
	var worst := 0.0
	for flip in [1.0, -1.0]:
		var cart := Node2D.new()
		cart.scale = Vector2(flip, 1)
		add_child(cart)
		var skeleton := Skeleton2D.new()
		cart.add_child(skeleton)
		var wheel := Rig.bone(skeleton, "Wheel", Vector2(20, 10), RADIUS, 0.5, 0.0)
		var copy: Node2D = ClassDB.instantiate("CopyTransform2D")
		copy.update_mode = 2
		copy.space = 1
		copy.source = cart
		copy.bone = wheel
		copy.rotation_from = 1
		copy.rotation_factor = 1.0 / RADIUS
		copy.rotation_offset = 0.2
		copy.position_amount = 0.0
		cart.add_child(copy)
		for x in [0.0, 13.0, 150.0, -40.0, 600.0]:
			cart.position = Vector2(x, 200)
			expect(copy.solve(), "wheel: solved")
			worst = maxf(worst, absf(angle_difference(wheel.rotation, flip * (x / RADIUS + 0.2))))
			expect(wheel.position == Vector2(20, 10), "wheel: its position is untouched")
		cart.free()
	expect(worst < 1e-5, "the wheel turns by x / radius (worst %s rad)" % worst)
	print("CopyTransform2D wheel (local space, rotation from x / radius), plain and flipped cart: worst %.8f rad" % worst)


## Amounts and weight blend from the animated value, which the animation rewrites every frame; a bone nothing animates
## blends from its own authored value every frame, never from the copy's last write (no creeping).
func test_amounts_and_weight_blend_from_the_animated_pose_without_creeping() -> void:
	var c := Characters.with_followers(self, Vector2(400, 300), false, 2)
	var player: AnimationPlayer = c["player"]
	player.callback_mode_process = AnimationMixer.ANIMATION_CALLBACK_MODE_PROCESS_MANUAL
	var animation := player.get_animation("move")
	var track := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(track, NodePath("Skeleton/Torso/EyeL:rotation"))
	animation.track_insert_key(track, 0.0, -0.5)
	animation.track_insert_key(track, 1.0, 0.7)
	var eye_l: Bone2D = c["bones"]["eyes"][0]
	var eye_r: Bone2D = c["bones"]["eyes"][1]
	var authored_r := eye_r.rotation
	var authored_position_r := eye_r.position
	for copy in [c["copies"]["EyeL"], c["copies"]["EyeR"]]:
		copy.rotation_amount = 0.5
		copy.position_amount = 0.25
		copy.weight = 0.8
	var worst := 0.0
	for frame in 30:
		player.advance(1.0 / 30.0)
		var animated := eye_l.rotation
		var full_l := full_copy_rotation(c["copies"]["EyeL"])
		var full_r := full_copy_rotation(c["copies"]["EyeR"])
		for copy in c["copies"].values():
			expect(copy.solve(), "blend: solved")
		worst = maxf(worst, absf(angle_difference(eye_l.rotation, animated + angle_difference(animated, full_l) * 0.4)))
		worst = maxf(worst, absf(angle_difference(eye_r.rotation, authored_r + angle_difference(authored_r, full_r) * 0.4)))
		var point: Vector2 = eye_r.get_parent().global_transform.affine_inverse() * (c["bones"]["head"].global_transform * c["copies"]["EyeR"].position_offset)
		worst = maxf(worst, eye_r.position.distance_to(authored_position_r.lerp(point, 0.2)))
	expect(worst < 1e-4, "each written value is lerp(animated or authored, copied, amount * weight) every frame (worst %s)" % worst)
	c["character"].free()


## The local rotation a full plain global copy gives `copy`'s bone now (its parent's matrix, the bone's unit scale).
static func full_copy_rotation(copy: Node2D) -> float:
	var t: Transform2D = copy.source.global_transform
	var wanted := t.x.rotated(copy.rotation_offset * signf(t.determinant()))
	var parent: Transform2D = copy.bone.get_parent().global_transform
	return parent.affine_inverse().basis_xform(wanted).angle()


## "Don't inherit the parent's rotation" (godot#109950): a bone copying the global rotation of a still node keeps its
## global angle however its parent turns, its position still carried by the parent.
func test_a_bone_can_ignore_its_parent_s_rotation() -> void:
	var skeleton := make_chain([40.0, 30.0], [0.3, 0.5])
	var bones := bones_of(skeleton)
	var child: Bone2D = bones[1]
	var copy: Node2D = ClassDB.instantiate("CopyTransform2D")
	copy.update_mode = 2
	copy.source = skeleton
	copy.bone = child
	copy.position_amount = 0.0
	copy.rotation_offset = 0.8
	add_child(copy)
	var worst := 0.0
	for turn in [0.0, 0.7, -1.9, 3.0]:
		bones[0].rotation = turn
		expect(copy.solve(), "solved")
		worst = maxf(worst, absf(angle_difference(child.global_rotation, skeleton.global_rotation + 0.8)))
		expect(child.global_position.distance_to(bones[0].global_transform * Vector2(40, 0)) < 1e-3, "the parent still carries the bone")
	expect(worst < 1e-5, "the bone keeps its global angle while its parent turns (worst %s rad)" % worst)
	copy.free()
	skeleton.free()
