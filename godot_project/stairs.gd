extends "res://common/demo.gd"
## A character walks over slopes and stairs with grounded feet. Its walk cycle is authored for flat ground (the
## script poses the thighs, shins, feet and the hips' bob every frame, as an AnimationPlayer would); a
## FootGrounder2D casts a ray under each animated foot onto the StaticBody2D ground, plants the TwoBoneIk2D legs
## on it (a swinging foot keeps its lift), turns each foot bone to the slope and lowers the hips so the lower foot
## reaches on a stair. It turns around at the ends with scale.x = -1: the grounded pose is the mirror image.

const Rig := preload("res://common/rig.gd")
const THIGH := 50.0
const SHIN := 50.0
const FOOT_LENGTH := 18.0
const FOOT_HEIGHT := 4.0
const STANCE_KNEE := 0.1
const SWING_KNEE := 0.9
const SWING := 0.42
const SPEED := 70.0
const STRIDE := 64.0
const X_MIN := 90.0
const X_MAX := 870.0
## Hips height above the ankles' line in the animation (both legs straight but for the stance knee).
const HIP_HEIGHT := THIGH + SHIN * 0.995
## The ground: (x, y) corners, left to right; a vertical pair of points is a step's riser.
const GROUND := [
	Vector2(-20, 452), Vector2(170, 452), Vector2(300, 404), Vector2(380, 404),
	Vector2(380, 416), Vector2(420, 416), Vector2(420, 428), Vector2(460, 428), Vector2(460, 440), Vector2(500, 440),
	Vector2(500, 452), Vector2(600, 452), Vector2(600, 438), Vector2(640, 438), Vector2(640, 424), Vector2(680, 424),
	Vector2(680, 410), Vector2(760, 410), Vector2(880, 452), Vector2(980, 452),
]

var walker: Node2D
var hip: Bone2D
var thighs: Array[Bone2D] = []
var shins: Array[Bone2D] = []
var feet: Array[Bone2D] = []
var legs: Array[Node2D] = []
var grounder: Node2D
var head_ik: Node2D
var look_target: Node2D
var facing := 1.0
var phase := 0.0
var travelled := 0.0
var turns := 0
var grounding := true
## Worst measured, over the frames the grounder ran: a leg's distance to its goal, a foot's planted distance off
## its ground, and non-finite bones.
var worst_reach := 0.0
var worst_planted := 0.0
var planted_frames := 0
var not_finite := 0
var worst_at := ""
var _steady: Array[int] = [0, 0]
var _ground_seen: Array[float] = [NAN, NAN]


func demo_title() -> String:
	return "Slopes and stairs: FootGrounder2D"


func demo_help() -> String:
	return "The walk cycle is authored for flat ground. FootGrounder2D casts a ray under each animated foot, puts the TwoBoneIk2D legs' feet on the ground (slopes, stair steps), turns the foot bones to the slope and lowers the hips so the lower foot reaches; feet and hips move with a speed limit, so a ray crossing a step's edge never pops. Turn grounding off to see the feet float and sink. It turns around with scale.x = -1."


func height_at(x: float) -> float:
	for i in GROUND.size() - 1:
		var a: Vector2 = GROUND[i]
		var b: Vector2 = GROUND[i + 1]
		if x >= a.x and x < b.x:
			return lerpf(a.y, b.y, (x - a.x) / (b.x - a.x))
	return GROUND[-1].y


func _demo_ready() -> void:
	var body := StaticBody2D.new()
	body.name = "Ground"
	var shape := CollisionPolygon2D.new()
	var polygon := PackedVector2Array(GROUND)
	polygon.append(Vector2(980, 560))
	polygon.append(Vector2(-20, 560))
	shape.polygon = polygon
	body.add_child(shape)
	add_child(body)
	walker = Node2D.new()
	walker.name = "Walker"
	walker.position = Vector2(200, height_at(200) - HIP_HEIGHT - FOOT_HEIGHT)
	add_child(walker)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	walker.add_child(skeleton)
	var skin := Color(0.93, 0.78, 0.62)
	var shirt := Color(0.85, 0.45, 0.3)
	var trousers := Color(0.25, 0.3, 0.45)
	hip = Rig.bone(skeleton, "Hip", Vector2.ZERO, 12.0, -PI / 2)
	var torso := Rig.bone(hip, "Torso", Vector2(0, -10), 54.0, -PI / 2, 0.05)
	Rig.limb(torso, 28.0, shirt)
	var head := Rig.bone(torso, "Head", Vector2(0, -60), 24.0, 0.0)
	Rig.disc(head, Vector2(6, -12), 17.0, skin, 1)
	Rig.disc(head, Vector2(15, -15), 3.0, Color(0.1, 0.1, 0.15), 2)
	for side in ["Back", "Front"]:
		var z := -2 if side == "Back" else 2
		var shade := 0.35 if side == "Back" else 0.0
		var thigh := Rig.bone(hip, "Thigh" + side, Vector2.ZERO, THIGH, PI / 2)
		Rig.limb(thigh, 16.0, trousers.darkened(shade), z)
		var shin := Rig.bone(thigh, "Shin" + side, Vector2(0, THIGH), SHIN, PI / 2)
		Rig.limb(shin, 13.0, trousers.darkened(shade), z)
		var foot := Rig.bone(shin, "Foot" + side, Vector2(0, SHIN), FOOT_LENGTH, 0.0)
		Rig.limb(foot, 8.0, Color(0.2, 0.16, 0.12).lightened(0.2 - shade * 0.3), z)
		thighs.append(thigh)
		shins.append(shin)
		feet.append(foot)
		var ik: Node2D = ClassDB.instantiate("TwoBoneIk2D")
		ik.name = "Leg" + side
		ik.root_bone = thigh
		ik.tip_bone = shin
		add_child(ik)
		legs.append(ik)
	grounder = ClassDB.instantiate("FootGrounder2D")
	grounder.name = "FootGrounder"
	# On the animation's ground line: the soles' line under the hips when the stance leg is straightest.
	grounder.position = Vector2(0, HIP_HEIGHT + FOOT_HEIGHT)
	walker.add_child(grounder)
	grounder.first_leg = legs[0]
	grounder.first_foot = feet[0]
	grounder.second_leg = legs[1]
	grounder.second_foot = feet[1]
	grounder.hips = hip
	grounder.foot_height = FOOT_HEIGHT
	grounder.max_tilt = 0.45
	look_target = Rig.target(self, "LookTarget", auto_aim(0.0))
	head_ik = ClassDB.instantiate("LookAt2D")
	head_ik.name = "HeadLookAt"
	head_ik.bone = head
	head_ik.target = look_target
	add_child(head_ik)
	head_ik.set_angle_limits(0, -0.6, 0.6)
	add_toggle("Ground the feet", true, func(on: bool) -> void:
		grounding = on
		grounder.enabled = on)
	var turn := Button.new()
	turn.text = "Turn around"
	turn.pressed.connect(_turn)
	_controls.add_child(turn)


func _turn() -> void:
	facing = -facing
	walker.scale.x = facing
	turns += 1


func auto_aim(t: float) -> Vector2:
	var center := walker.global_position if walker != null else Vector2(480, 300)
	return center + Vector2(facing * (140.0 + 40.0 * cos(t * 0.7)), -110.0 + sin(t * 1.1) * 40.0)


## The flat-ground walk cycle, as an animation would key it: thighs swing, the swinging knee bends, the feet stay
## level, and the hips bob so the stance foot stays on the ground line.
func _animate() -> void:
	var stance_height := 0.0
	for i in 2:
		var psi := phase + PI * i
		var thigh_rotation := -SWING * sin(psi)
		var knee := STANCE_KNEE + (SWING_KNEE - STANCE_KNEE) * maxf(cos(psi), 0.0)
		thighs[i].rotation = thigh_rotation
		shins[i].rotation = knee
		feet[i].rotation = -thigh_rotation - knee
		if cos(psi) <= 0.0:
			stance_height = THIGH * cos(thigh_rotation) + SHIN * cos(thigh_rotation + knee)
	hip.position = Vector2(0, HIP_HEIGHT - stance_height)


func _demo_process(delta: float) -> void:
	_measure()
	if (facing > 0.0 and walker.position.x > X_MAX) or (facing < 0.0 and walker.position.x < X_MIN):
		_turn()
	walker.position.x += facing * SPEED * delta
	travelled += SPEED * delta
	phase = fmod(phase + SPEED * delta / STRIDE * PI, TAU)
	# The body follows the ground under it smoothly, like a capsule on a floor: the stairs are the feet's job.
	var wanted_y := height_at(walker.position.x) - HIP_HEIGHT - FOOT_HEIGHT
	walker.position.y = lerpf(walker.position.y, wanted_y, minf(1.0, 6.0 * delta))
	_animate()
	look_target.global_position = aim()
	set_status("feet: %s / %s   hips lowered %.1f px   facing %s" % [
		"on ground" if grounder.is_foot_grounded(0) else "in the air",
		"on ground" if grounder.is_foot_grounded(1) else "in the air",
		grounder.get_hips_drop(), "right" if facing > 0.0 else "left (scale.x = -1)"])


## What the legs did last frame (the grounder runs after this script): each leg reached its goal, and a grounded
## foot whose goal had settled (did not move relative to the walker) sits foot_height above the ground.
func _measure() -> void:
	if not grounding or legs[0].last_error < 0.0:
		return
	for i in 2:
		var ankle := Rig.bone_end(shins[i])
		if not ankle.is_finite() or not is_finite(hip.position.y):
			not_finite += 1
		if legs[i].last_error > worst_reach:
			worst_reach = legs[i].last_error
			worst_at = "leg %d at x %.1f, facing %d, hips drop %.2f" % [i, ankle.x, facing, grounder.get_hips_drop()]
		# A stance foot on flat ground (under its heel and its toe, which casts its own ray) whose ground height has
		# not changed for 12 frames: its correction has settled.
		var ground := height_at(ankle.x)
		var toe_x := Rig.bone_end(feet[i]).x
		var flat := absf(height_at(ankle.x - 8.0) - ground) < 1e-3 and absf(height_at(ankle.x + 8.0) - ground) < 1e-3 \
			and absf(height_at(toe_x - 4.0) - ground) < 1e-3 and absf(height_at(toe_x + 4.0) - ground) < 1e-3
		var stance := cos(phase + PI * i) <= 0.0
		_steady[i] = _steady[i] + 1 if flat and stance and ground == _ground_seen[i] else 0
		_ground_seen[i] = ground
		if grounder.is_foot_grounded(i) and _steady[i] >= 12:
			worst_planted = maxf(worst_planted, absf(ground - FOOT_HEIGHT - ankle.y))
			planted_frames += 1


func _draw() -> void:
	var polygon := PackedVector2Array(GROUND)
	polygon.append(Vector2(980, 560))
	polygon.append(Vector2(-20, 560))
	draw_colored_polygon(polygon, Color(0.18, 0.19, 0.24))
	draw_polyline(PackedVector2Array(GROUND), Color(0.55, 0.6, 0.75), 3.0, true)


func _draw_overlay(canvas: Node2D) -> void:
	for i in 2:
		var goal: Vector2 = grounder.get_foot_goal(i)
		if grounder.is_foot_grounded(i):
			canvas.draw_arc(goal, 5.0, 0.0, TAU, 16, Color(ACCENT, 0.9), 1.5, true)
	var line_y: float = grounder.global_position.y
	canvas.draw_dashed_line(Vector2(walker.position.x - 40, line_y), Vector2(walker.position.x + 40, line_y), Color(1, 1, 1, 0.25), 1.0, 4.0)
	draw_marker(canvas, look_target.global_position, 9.0, Color(0.4, 0.85, 1.0))


func get_ik_nodes() -> Array:
	return [head_ik]


## The demo runner's extra check: the legs reached their ground goals, the planted feet sat on the ground, and
## nothing was NaN.
func demo_problems() -> Array[String]:
	var problems: Array[String] = []
	if worst_reach > 0.05:
		problems.append("a grounded leg missed its goal by %.4f px (%s)" % [worst_reach, worst_at])
	if planted_frames == 0:
		problems.append("no planted foot was measured")
	elif worst_planted > 0.05:
		problems.append("a planted foot was %.4f px off the ground + foot_height" % worst_planted)
	if not_finite > 0:
		problems.append("%d frames with a non-finite bone" % not_finite)
	return problems


func summary() -> String:
	return "walked %.0f px, turned %d times, legs' worst distance to their ground goal %.4f px, planted feet worst %.4f px off the ground over %d foot-frames" % [travelled, turns, worst_reach, worst_planted, planted_frames]
