extends "res://common/demo.gd"
## CopyTransform2D: bones that follow other nodes. Two characters (the right one the mirror image, scale.x = -1) whose
## AnimationPlayer sways the torso and bobs the head while a TwoBoneIk2D puts the hand on the ball; the eyes follow
## the head and the sword follows the hand with an offset (copies placed after the IK node, so the sword follows the
## solved hand in the same frame). Below, a cart rolls back and forth, turning around (its own scale.x = -1) to face
## the way it drives, and its wheels roll with its x: a copy in the local space with the rotation remapped from the
## cart's x (factor 1 / radius), written the other way round under the turned cart so the wheels still roll.

const Rig := preload("res://common/rig.gd")
## The two characters stand either side of x = AXIS.
const AXIS := 480.0
const SCALE := 2.4
const SKIN := Color(0.93, 0.78, 0.62)
## The floor's top (global y): the characters stand on it, the cart rolls on it.
const FLOOR_Y := 495.0
const WHEEL_RADIUS := 16.0

var characters: Array[Dictionary] = []
var cart: Node2D
var wheel_copies: Array[Node2D] = []
## The worst seen: copies' rotation (rad) and origin (px) off their source, the wheels' rotation off x / radius,
## and the right character off the mirror image of the left (px).
var worst_rotation := 0.0
var worst_origin := 0.0
var worst_wheel := 0.0
var worst_mirror := 0.0
var frames_measured := 0


func demo_title() -> String:
	return "Followers: CopyTransform2D"


func demo_help() -> String:
	return "The eyes follow the head and the sword follows the hand with an offset (CopyTransform2D, global space). An AnimationPlayer sways the torso and bobs the head; a TwoBoneIk2D puts the hand on the ball, and the sword's copy runs after it in tree order, so the sword is in the solved hand in the same frame. The right character is the mirror image (scale.x = -1). The cart turns around (scale.x = -1) to face the way it drives, and its wheels roll with its x: a copy in the local space with the rotation taken from x, times 1 / radius. Move the mouse to move the ball."


func _demo_ready() -> void:
	for flipped in [false, true]:
		characters.append(make_character(flipped))
	make_cart()


## A character at AXIS -/+ 250 px, turned around when `flipped`: body, animation, arm IK, eyes and sword copies.
func make_character(flipped: bool) -> Dictionary:
	var root := Node2D.new()
	root.name = "Right" if flipped else "Left"
	root.position = Vector2(AXIS + (250.0 if flipped else -250.0), FLOOR_Y - 12.0)
	add_child(root)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.scale = Vector2.ONE * SCALE
	root.add_child(skeleton)
	var bones := Rig.head_and_arm(skeleton)
	var cloth := Color(0.3, 0.55, 0.85) if not flipped else Color(0.75, 0.35, 0.4)
	Rig.limb(bones["torso"], 17.0, cloth, -2)
	Rig.disc(bones["head"], Vector2.from_angle(bones["head"].get_bone_angle()) * 12.0, 13.0, SKIN, -1)
	Rig.limb(bones["upper"], 6.0, cloth.lightened(0.25), 1)
	Rig.limb(bones["fore"], 5.0, SKIN, 1)
	for eye: Bone2D in bones["eyes"]:
		Rig.disc(eye, Vector2.ZERO, 3.4, Color(0.97, 0.97, 0.97), 2)
		Rig.disc(eye, Vector2.from_angle(eye.get_bone_angle()) * 1.6, 1.6, Color(0.08, 0.08, 0.12), 3)
	var blade := Rig.limb(bones["sword"], 2.5, Color(0.82, 0.86, 0.92), 2)
	blade.points = PackedVector2Array([Vector2.ZERO, Vector2.from_angle(bones["sword"].get_bone_angle()) * bones["sword"].get_length()])
	var guard := Line2D.new()
	guard.points = PackedVector2Array([Vector2.from_angle(bones["sword"].get_bone_angle() + PI / 2) * 7.0, Vector2.from_angle(bones["sword"].get_bone_angle() - PI / 2) * 7.0])
	guard.width = 2.5
	guard.default_color = Color(0.85, 0.7, 0.3)
	guard.z_index = 2
	bones["sword"].add_child(guard)
	# The animation: the torso sways, the head bobs (keys that differ, so the player writes every frame).
	var animation := Animation.new()
	animation.length = 2.0
	animation.loop_mode = Animation.LOOP_LINEAR
	for pair in [["Skeleton/Torso", bones["torso"].rotation, 0.12], ["Skeleton/Torso/Head", bones["head"].rotation, 0.35]]:
		var track := animation.add_track(Animation.TYPE_VALUE)
		animation.track_set_path(track, NodePath(pair[0] + ":rotation"))
		animation.track_set_interpolation_type(track, Animation.INTERPOLATION_CUBIC)
		for k in 3:
			animation.track_insert_key(track, k * 1.0, pair[1] + pair[2] * (1.0 if k == 1 else -1.0))
	var library := AnimationLibrary.new()
	library.add_animation("idle", animation)
	var player := AnimationPlayer.new()
	player.name = "AnimationPlayer"
	player.add_animation_library("", library)
	root.add_child(player)
	# The arm reaches for the ball; then the copies (after the IK node: the sword sees the solved hand).
	var ball := Rig.target(root, "Ball", Vector2.ZERO)
	var arm := TwoBoneIk2D.new()
	arm.name = "Arm"
	arm.root_bone = bones["upper"]
	arm.tip_bone = bones["fore"]
	arm.target = ball
	arm.flip_bend = true  # the elbow down, not up across the face
	root.add_child(arm)
	var copies: Array[Node2D] = []
	for pair in [[bones["eyes"][0], bones["head"]], [bones["eyes"][1], bones["head"]], [bones["sword"], bones["fore"]]]:
		var follower: Bone2D = pair[0]
		var source: Bone2D = pair[1]
		var copy: Node2D = ClassDB.instantiate("CopyTransform2D")
		copy.name = "Copy" + follower.name
		copy.source = source
		copy.bone = follower
		if follower == bones["sword"]:
			# Held at the hand (the forearm's end), the blade turned 0.9 rad forward from the forearm's line.
			copy.position_offset = Vector2.from_angle(source.get_bone_angle()) * source.get_length()
			copy.rotation_offset = source.get_bone_angle() - follower.get_bone_angle() + 0.9
		else:
			# Kept where it is drawn on the head.
			copy.position_offset = source.global_transform.affine_inverse() * follower.global_position
			copy.rotation_offset = angle_difference(source.global_rotation, follower.global_rotation)
		root.add_child(copy)
		copies.append(copy)
	root.scale = Vector2(-1, 1) if flipped else Vector2.ONE
	player.play("idle")
	return {"root": root, "bones": bones, "arm": arm, "ball": ball, "copies": copies}


## The cart: a body moving along x with a lamp at its front and two wheels (bones under its skeleton), each turned by
## a copy of the cart's local x into its rotation.
func make_cart() -> void:
	cart = Node2D.new()
	cart.name = "Cart"
	cart.position = Vector2(AXIS, FLOOR_Y - WHEEL_RADIUS)
	add_child(cart)
	var body := Polygon2D.new()
	body.polygon = PackedVector2Array([Vector2(-56, -42), Vector2(56, -42), Vector2(48, -6), Vector2(-48, -6)])
	body.color = Color(0.55, 0.4, 0.28)
	cart.add_child(body)
	var lamp := Polygon2D.new()
	lamp.polygon = PackedVector2Array([Vector2(50, -36), Vector2(62, -32), Vector2(60, -22), Vector2(48, -24)])
	lamp.color = Color(0.98, 0.86, 0.45)
	cart.add_child(lamp)
	var skeleton := Skeleton2D.new()
	cart.add_child(skeleton)
	for x in [-32.0, 32.0]:
		var wheel := Rig.bone(skeleton, "Wheel%d" % wheel_copies.size(), Vector2(x, 0), WHEEL_RADIUS, 0.3)
		Rig.disc(wheel, Vector2.ZERO, WHEEL_RADIUS, Color(0.2, 0.2, 0.24), -1)
		for spoke in 3:
			var line := Line2D.new()
			var direction := Vector2.from_angle(spoke * PI / 3.0)
			line.points = PackedVector2Array([-direction * (WHEEL_RADIUS - 3.0), direction * (WHEEL_RADIUS - 3.0)])
			line.width = 2.5
			line.default_color = Color(0.75, 0.75, 0.8)
			wheel.add_child(line)
		var copy: Node2D = ClassDB.instantiate("CopyTransform2D")
		copy.name = "Roll%d" % wheel_copies.size()
		copy.source = cart
		copy.bone = wheel
		copy.space = 1
		copy.rotation_from = 1
		copy.rotation_factor = 1.0 / WHEEL_RADIUS
		copy.position_amount = 0.0
		cart.add_child(copy)
		wheel_copies.append(copy)


func auto_aim(t: float) -> Vector2:
	# In reach of the left hand (the right one reaches for the mirror image).
	var shoulder: Vector2 = characters[0]["bones"]["upper"].global_position if not characters.is_empty() else Vector2(250, 370)
	return shoulder + Vector2(100.0 + 30.0 * cos(t * 1.3), 25.0 + 45.0 * sin(t * 1.9))


func _demo_process(_delta: float) -> void:
	measure()
	var goal := aim()
	characters[0]["ball"].global_position = goal
	characters[1]["ball"].global_position = Vector2(2.0 * AXIS - goal.x, goal.y)
	cart.position.x = AXIS + 110.0 * sin(time * 0.7)
	cart.scale.x = 1.0 if cos(time * 0.7) >= 0.0 else -1.0  # facing the way it drives
	set_status("sword off the hand %.7f rad   wheels off x / r %.7f rad   mirror %.5f px" % [worst_rotation, worst_wheel, worst_mirror])


## The last frame's outcome, measured before anything moves this frame: every copy against its source, the wheels
## against the cart's x, the right character against the mirror image of the left.
func measure() -> void:
	if time < 0.1:
		return  # the first frames: the copies have not run yet
	frames_measured += 1
	for c in characters:
		for copy: Node2D in c["copies"]:
			var t: Transform2D = copy.source.global_transform
			var wanted := t.x.rotated(copy.rotation_offset * signf(t.determinant()))
			var bone: Bone2D = copy.bone
			worst_rotation = maxf(worst_rotation, absf(bone.global_transform.x.angle_to(wanted)))
			worst_origin = maxf(worst_origin, bone.global_position.distance_to(t * copy.position_offset))
	for copy in wheel_copies:
		# Under the turned cart the rotation is written the other way round: on screen the wheel still rolls.
		var rolled := cart.scale.x * cart.position.x / WHEEL_RADIUS
		worst_wheel = maxf(worst_wheel, absf(angle_difference(copy.bone.rotation, rolled)))
	for name in ["torso", "head", "upper", "fore", "sword"]:
		var a: Bone2D = characters[0]["bones"][name]
		var b: Bone2D = characters[1]["bones"][name]
		for pair in [[a.global_position, b.global_position], [Rig.bone_end(a), Rig.bone_end(b)]]:
			worst_mirror = maxf(worst_mirror, Vector2(2.0 * AXIS - pair[0].x, pair[0].y).distance_to(pair[1]))


func _draw() -> void:
	draw_rect(Rect2(0, FLOOR_Y, 960, 540 - FLOOR_Y), Color(0.12, 0.13, 0.17))


func _draw_overlay(canvas: Node2D) -> void:
	for c in characters:
		draw_marker(canvas, c["ball"].global_position, 9.0, Color(1.0, 0.45, 0.35))


func get_ik_nodes() -> Array:
	return characters.map(func(c): return c["arm"])


func demo_problems() -> Array[String]:
	var problems: Array[String] = []
	if frames_measured < 10:
		problems.append("the copies were measured on %d frames only" % frames_measured)
	if worst_rotation > 1e-4 or worst_origin > 0.01:
		problems.append("a copy is off its source: %.6f rad, %.4f px" % [worst_rotation, worst_origin])
	if worst_wheel > 1e-4:
		problems.append("a wheel is off x / radius by %.6f rad" % worst_wheel)
	if worst_mirror > 0.05:
		problems.append("the right character is off the mirror image of the left by %.4f px" % worst_mirror)
	return problems


func summary() -> String:
	return "copies: worst rotation %.7f rad, origin %.5f px, wheels %.7f rad, mirror %.5f px over %d frames" % [worst_rotation, worst_origin, worst_wheel, worst_mirror, frames_measured]
