extends "res://common/demo.gd"
## A character built from Bone2D shapes walks on uneven ground. Each leg is a TwoBoneIk2D whose foot target is
## planted on the ground and swung forward one step at a time; the knees point at a pole that is a child of the
## character, so it turns with it. Turning around sets `scale.x = -1` on the character's root, and the IK gives the
## exact mirror image. The head is a LookAt2D toward the pointer, and the front arm a TwoBoneIk2D reaching for it
## with `stretch` (a rubber-hose arm: the forearm's position is written along the upper arm), bending its elbow the
## way the arm was drawn (no pole, no flip_bend).

const Rig := preload("res://common/rig.gd")
const THIGH := 52.0
const SHIN := 52.0
const SPEED := 80.0
const STRIDE := 56.0
const SWING_TIME := 0.3
const LIFT := 16.0
const HIP_HEIGHT := 86.0
const X_MIN := 170.0
const X_MAX := 790.0
const UPPER_ARM := 28.0
const FOREARM := 26.0
## How far the front hand reaches toward the pointer (px from the shoulder): beyond the arm's 54 px, so it stretches.
const ARM_REACH := 66.0
## The most the upper arm may lengthen (a fraction of its length).
const ARM_STRETCH := 0.5

var walker: Node2D
var hip: Bone2D
var arms: Array[Bone2D] = []
var forearms: Array[Bone2D] = []
var arm_ik: Node2D
var reach_target: Node2D
var reaching := true
var legs: Array[Node2D] = []
var foot_targets: Array[Node2D] = []
var head_ik: Node2D
## The knees point at it: in front of the hips, in the character's own frame, so it turns around with the character.
var knee_pole: Node2D
var look_target: Node2D
var facing := 1.0
var walking := true
## Per foot: where it is planted (or swinging from/to), and the swing's progress (-1 when planted).
var feet: Array[Dictionary] = []
var travelled := 0.0
var turns := 0
## Frames (once the legs have solved) with a knee bent backward in the character's own frame, of all frames seen.
var knees_backward := 0
var knee_frames := 0
var most_stretch := 0.0


func demo_title() -> String:
	return "Walker: TwoBoneIk2D legs and arm, LookAt2D head"


func demo_help() -> String:
	return "The feet are IK targets planted on the uneven ground; the knees point at a pole (the green diamond) in front of the hips. The walker turns around with scale.x = -1 on its root, the pole with it: the knees still bend forward, the mirrored pose is exact. The head looks at the mouse or your finger, and the front arm reaches for it, stretching (stretch = 0.5) when it is out of reach. Arrow keys turn it."


func ground_y(x: float) -> float:
	return 450.0 + 16.0 * sin(x * 0.013) + 9.0 * sin(x * 0.037 + 1.3)


func _demo_ready() -> void:
	walker = Node2D.new()
	walker.name = "Walker"
	walker.position = Vector2(480, ground_y(480) - HIP_HEIGHT)
	add_child(walker)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	walker.add_child(skeleton)
	var skin := Color(0.93, 0.78, 0.62)
	var shirt := Color(0.3, 0.55, 0.85)
	var trousers := Color(0.22, 0.25, 0.4)
	knee_pole = Node2D.new()
	knee_pole.name = "KneePole"
	knee_pole.position = Vector2(90, 40)
	walker.add_child(knee_pole)
	hip = Rig.bone(skeleton, "Hip", Vector2.ZERO, 12.0, -PI / 2)
	var torso := Rig.bone(hip, "Torso", Vector2(0, -12), 58.0, -PI / 2, 0.06)
	Rig.limb(torso, 30.0, shirt)
	var head := Rig.bone(torso, "Head", Vector2(0, -64), 26.0, 0.0)
	Rig.disc(head, Vector2(6, -12), 18.0, skin, 1)
	Rig.disc(head, Vector2(16, -15), 3.0, Color(0.1, 0.1, 0.15), 2)
	var hair := Rig.disc(head, Vector2(2, -19), 16.0, Color(0.35, 0.22, 0.15), 2)
	hair.scale = Vector2(1.0, 0.6)
	for side in ["Back", "Front"]:
		var z := -2 if side == "Back" else 2
		var shade := 0.35 if side == "Back" else 0.0
		var arm := Rig.bone(torso, "Arm" + side, Vector2(0, -54), UPPER_ARM, PI / 2)
		Rig.limb(arm, 11.0, skin.darkened(shade), z)
		arms.append(arm)
		# Drawn with the elbow bent a little (hand forward): the IK keeps that side.
		var forearm := Rig.bone(arm, "Forearm" + side, Vector2(0, UPPER_ARM), FOREARM, PI / 2, -0.35)
		Rig.limb(forearm, 10.0, skin.darkened(shade), z)
		forearms.append(forearm)
		var thigh := Rig.bone(hip, "Thigh" + side, Vector2.ZERO, THIGH, PI / 2)
		Rig.limb(thigh, 17.0, trousers.darkened(shade), z)
		var shin := Rig.bone(thigh, "Shin" + side, Vector2(0, THIGH), SHIN, PI / 2)
		Rig.limb(shin, 14.0, trousers.darkened(shade), z)
		var foot := Line2D.new()
		foot.points = PackedVector2Array([Vector2(-3, SHIN), Vector2(15, SHIN + 2)])
		foot.width = 9.0
		foot.default_color = Color(0.15, 0.12, 0.1).lightened(0.15 - shade * 0.3)
		foot.begin_cap_mode = Line2D.LINE_CAP_ROUND
		foot.end_cap_mode = Line2D.LINE_CAP_ROUND
		foot.z_index = z
		shin.add_child(foot)
		var x := 480.0 + (14.0 if side == "Front" else -14.0)
		var foot_target := Rig.target(self, "Foot%s" % side, Vector2(x, ground_y(x)))
		foot_targets.append(foot_target)
		feet.append({"pos": foot_target.global_position, "from": Vector2.ZERO, "to": Vector2.ZERO, "t": -1.0})
		var ik: Node2D = ClassDB.instantiate("TwoBoneIk2D")
		ik.name = "Leg%s" % side
		ik.root_bone = thigh
		ik.tip_bone = shin
		ik.target = foot_target
		ik.pole = knee_pole  # knees forward (toward +x in the character's own frame), whichever way it faces
		add_child(ik)
		legs.append(ik)
	look_target = Rig.target(self, "LookTarget", auto_aim(0.0))
	head_ik = ClassDB.instantiate("LookAt2D")
	head_ik.name = "HeadLookAt"
	head_ik.bone = head
	head_ik.target = look_target
	add_child(head_ik)
	head_ik.set_angle_limits(0, -0.8, 0.7)
	reach_target = Rig.target(self, "ReachTarget", walker.global_position)
	arm_ik = ClassDB.instantiate("TwoBoneIk2D")
	arm_ik.name = "ArmReach"
	arm_ik.root_bone = arms[1]
	arm_ik.tip_bone = forearms[1]
	arm_ik.target = reach_target
	arm_ik.stretch = ARM_STRETCH
	add_child(arm_ik)
	add_toggle("Walk", true, func(on: bool) -> void: walking = on)
	add_toggle("Reach (stretch)", true, func(on: bool) -> void:
		reaching = on
		arm_ik.enabled = on)  # disabled, it puts the forearm back where it was drawn
	var turn := Button.new()
	turn.text = "Turn around"
	turn.pressed.connect(_turn)
	_controls.add_child(turn)


func _turn() -> void:
	facing = -facing
	walker.scale.x = facing
	turns += 1


func _unhandled_input(event: InputEvent) -> void:
	super(event)
	if event is InputEventKey and event.pressed:
		var key := (event as InputEventKey).keycode
		if (key == KEY_LEFT and facing > 0.0) or (key == KEY_RIGHT and facing < 0.0):
			_turn()


func auto_aim(t: float) -> Vector2:
	var center := walker.global_position if walker != null else Vector2(480, 360)
	return center + Vector2(facing * (120.0 + 70.0 * cos(t * 0.8)), -130.0 + sin(t * 1.3) * 70.0)


func _demo_process(delta: float) -> void:
	_count_knees()
	if walking:
		if (facing > 0.0 and walker.position.x > X_MAX) or (facing < 0.0 and walker.position.x < X_MIN):
			_turn()
		walker.position.x += facing * SPEED * delta
		travelled += SPEED * delta
	_step_feet(delta)
	# Hip height: follow the ground under the feet, bob with the swing, and never leave a foot out of reach.
	var reach := (THIGH + SHIN) * 0.98
	var hip_y := 0.0
	var swing := 0.0
	for foot in feet:
		hip_y += (foot["pos"] as Vector2).y / feet.size()
		swing = maxf(swing, sin(PI * maxf(foot["t"], 0.0)))
	hip_y += -HIP_HEIGHT - 3.0 * swing
	for foot in feet:
		var p: Vector2 = foot["pos"]
		var dx := absf(p.x - walker.position.x)
		hip_y = maxf(hip_y, p.y - sqrt(maxf(reach * reach - dx * dx, 0.0)))
	walker.position.y = hip_y
	var phase := travelled / (STRIDE + SPEED * SWING_TIME) * PI
	arms[0].rotation = 0.45 * sin(phase)
	if not reaching:
		arms[1].rotation = -0.45 * sin(phase)
		forearms[1].rotation = -0.35
	for i in feet.size():
		foot_targets[i].global_position = feet[i]["pos"]
	look_target.global_position = aim()
	var shoulder := arms[1].global_position
	reach_target.global_position = shoulder + (look_target.global_position - shoulder).limit_length(ARM_REACH)
	# The upper arm's stroke follows the stretch (a skinned polygon would deform by itself).
	var upper_shape: Line2D = arms[1].get_node("Shape")
	upper_shape.set_point_position(1, forearms[1].position)
	var stretched := forearms[1].position.length() / UPPER_ARM - 1.0
	most_stretch = maxf(most_stretch, stretched)
	set_status("legs error %.3f / %.3f px   head %.3f rad   arm %.3f px, stretched %d%%   facing %s" % [legs[0].last_error, legs[1].last_error, head_ik.last_error, arm_ik.last_error, roundi(stretched * 100.0), "right" if facing > 0.0 else "left (scale.x = -1)"])


## Counts the frames whose pose (the IK's, from the frame before) bends a knee backward in the character's frame (a
## straight leg is neither way).
func _count_knees() -> void:
	if legs.is_empty() or legs[0].last_error < 0.0 or legs[1].last_error < 0.0:
		return  # not solved yet: the legs still stand straight in their rest pose
	var to_character := walker.global_transform.affine_inverse()
	var backward := false
	for ik in legs:
		var hip_at: Vector2 = to_character * (ik.root_bone as Bone2D).global_position
		var knee: Vector2 = to_character * (ik.tip_bone as Bone2D).global_position
		var foot: Vector2 = to_character * Rig.bone_end(ik.tip_bone)
		# Forward is +x; the leg points down (+y), so a backward knee has a positive cross product.
		var leg := foot - hip_at
		backward = backward or leg.cross(knee - hip_at) > 1e-3 * leg.length_squared()
	knee_frames += 1
	knees_backward += 1 if backward else 0


## Plants and swings the feet: a foot that falls half a stride behind the hip steps to half a stride ahead of where
## the hip will be when it lands, one foot at a time.
func _step_feet(delta: float) -> void:
	var any_swinging := false
	for foot in feet:
		if foot["t"] >= 0.0:
			any_swinging = true
			var t: float = minf(foot["t"] + delta / SWING_TIME, 1.0)
			var from: Vector2 = foot["from"]
			var to: Vector2 = foot["to"]
			var p := from.lerp(to, t)
			p.y -= sin(PI * t) * LIFT
			foot["pos"] = p
			foot["t"] = t if t < 1.0 else -1.0
	if any_swinging:
		return
	var hip_x := walker.position.x
	var behind := -1
	var most := STRIDE * 0.5
	for i in feet.size():
		var lag := (hip_x - (feet[i]["pos"] as Vector2).x) * facing
		if not walking:
			lag = absf(hip_x - (feet[i]["pos"] as Vector2).x) + STRIDE * 0.5 - 12.0
		if lag > most:
			most = lag
			behind = i
	if behind < 0:
		return
	var ahead := STRIDE * 0.5 + (SPEED * SWING_TIME if walking else 0.0)
	var x := hip_x + facing * ahead + (6.0 if behind == 1 else -6.0) * facing
	if not walking:
		x = hip_x + (8.0 if behind == 1 else -8.0) * facing
	feet[behind]["from"] = feet[behind]["pos"]
	feet[behind]["to"] = Vector2(x, ground_y(x))
	feet[behind]["t"] = 0.0


## Turns the walker around in place for the same mirrored targets and returns the largest distance between a
## leg or head point of the turned pose and the mirror image of the unturned pose (px); then turns it back.
func mirror_check() -> float:
	var axis := walker.global_position.x
	var all_targets: Array[Node2D] = foot_targets.duplicate()
	all_targets.append(look_target)
	all_targets.append(reach_target)
	var all_ik: Array[Node2D] = legs.duplicate()
	all_ik.append(head_ik)
	all_ik.append(arm_ik)
	var saved: Array[Vector2] = []
	for t in all_targets:
		saved.append(t.global_position)
	for ik in all_ik:
		ik.solve()
	var before := _pose_points()
	walker.scale.x = -walker.scale.x
	for i in all_targets.size():
		all_targets[i].global_position = Vector2(2.0 * axis - saved[i].x, saved[i].y)
	for ik in all_ik:
		ik.solve()
	var after := _pose_points()
	var worst := 0.0
	for i in before.size():
		worst = maxf(worst, Vector2(2.0 * axis - before[i].x, before[i].y).distance_to(after[i]))
	walker.scale.x = -walker.scale.x
	for i in all_targets.size():
		all_targets[i].global_position = saved[i]
	for ik in all_ik:
		ik.solve()
	return worst


func _pose_points() -> PackedVector2Array:
	var points := PackedVector2Array()
	for ik in legs:
		var thigh: Bone2D = ik.root_bone
		var shin: Bone2D = ik.tip_bone
		points.append(thigh.global_position)
		points.append(shin.global_position)
		points.append(Rig.bone_end(shin))
	var head: Bone2D = head_ik.bone
	points.append(head.global_position)
	points.append(Rig.bone_end(head))
	points.append(forearms[1].global_position)
	points.append(Rig.bone_end(forearms[1]))
	return points


func _draw() -> void:
	var ground := PackedVector2Array()
	for i in 62:
		var x := -20.0 + i * 16.0
		ground.append(Vector2(x, ground_y(x)))
	ground.append(Vector2(980, 560))
	ground.append(Vector2(-20, 560))
	draw_colored_polygon(ground, Color(0.16, 0.2, 0.17))
	var edge := ground.slice(0, 62)
	draw_polyline(edge, Color(0.35, 0.55, 0.35), 3.0, true)


func _draw_overlay(canvas: Node2D) -> void:
	for t in foot_targets:
		canvas.draw_arc(t.global_position, 5.0, 0.0, TAU, 16, Color(ACCENT, 0.9), 1.5, true)
	draw_marker(canvas, look_target.global_position, 9.0, Color(0.4, 0.85, 1.0))
	var p := knee_pole.global_position
	var diamond := PackedVector2Array([p + Vector2(6, 0), p + Vector2(0, 6), p - Vector2(6, 0), p - Vector2(0, 6), p + Vector2(6, 0)])
	canvas.draw_polyline(diamond, Color(0.55, 1.0, 0.45, 0.9), 1.5, true)


func get_ik_nodes() -> Array:
	var nodes: Array = legs.duplicate()
	nodes.append(head_ik)
	nodes.append(arm_ik)
	return nodes


func summary() -> String:
	return "walked %.0f px, turned %d times, knees bent backward in %d of %d frames, arm stretched up to %d%%" % [travelled, turns, knees_backward, knee_frames, roundi(most_stretch * 100.0)]
