extends "res://common/demo.gd"
## Legs that walk by themselves: an eight-legged spider follows the pointer and a six-legged crab, mirrored with
## scale.x = -1 from the start, patrols the ground, both over bumps, steps and a slope (StaticBody2D ground). Each
## creature is a root Node2D its script moves (no walk cycle, no AnimationPlayer), a skeleton of TwoBoneIk2D legs
## with no targets, and a LegStepper2D that plants the feet, steps them in alternating groups, leads them ahead of
## a fast walk, raises and tilts the body on the feet, and mirrors the feet when the creature turns around. Dust
## puffs where a foot lands (the foot_planted signal).

const Rig := preload("res://common/rig.gd")
## The ground's top, left to right (y down): a bump, a block, a slope up to a plateau, a step down, a dip.
const GROUND := [
	Vector2(-40, 452), Vector2(110, 452), Vector2(130, 444), Vector2(150, 440), Vector2(170, 444), Vector2(190, 452),
	Vector2(290, 452), Vector2(290, 436), Vector2(370, 436), Vector2(370, 452), Vector2(470, 452), Vector2(590, 436),
	Vector2(690, 436), Vector2(690, 444), Vector2(760, 444), Vector2(800, 452), Vector2(1000, 452),
]
const X_MIN := 70.0
const X_MAX := 890.0
## How far below each creature's root its feet rest (the ground line).
const SPIDER_DROP := 52.0
const CRAB_DROP := 30.0
const SPIDER_SPEED := 150.0
const SPIDER_COLOR := Color(0.5, 0.46, 0.62)
## The crab patrols the left half (the bump and the block), the spider the right (the slope, the plateau, the step).
const CRAB_PATROL := [100.0, 400.0]
const CRAB_SPEED := 80.0

var spider: Dictionary
var crab: Dictionary
var eye_target: Node2D
var eye: Node2D
var puffs: Array = []
var steps := {"spider": 0, "crab": 0}
var turns := 0
## Worst measured, every frame: a planted leg's distance to the goal its stepper gave it (a swinging leg's too: an
## arc that passes closer to the hip than the leg folds is out of its reach for a moment), a planted foot's distance
## off the ground, and non-finite bones.
var worst_reach := 0.0
var worst_swing_reach := 0.0
var worst_planted := 0.0
var planted_frames := 0
var not_finite := 0


func demo_title() -> String:
	return "Legs that walk: LegStepper2D"


func demo_help() -> String:
	return "No walk cycle: a LegStepper2D on each creature keeps every foot planted until its home under the moving body is a step away, then lifts it along an arc to the ground ahead (a ray along gravity), the legs stepping in alternating groups. The spider (8 TwoBoneIk2D legs) follows the pointer and turns around with scale.x = -1; the crab (6 legs, mirrored) patrols. Bodies ride and tilt on their feet over the bump, the block, the slope and the step."


func height_at(x: float) -> float:
	for i in GROUND.size() - 1:
		var a: Vector2 = GROUND[i]
		var b: Vector2 = GROUND[i + 1]
		if x >= a.x and x < b.x and b.x > a.x:
			return lerpf(a.y, b.y, (x - a.x) / (b.x - a.x))
	return GROUND[-1].y


func _demo_ready() -> void:
	var ground := StaticBody2D.new()
	ground.name = "Ground"
	var shape := CollisionPolygon2D.new()
	var polygon := PackedVector2Array(GROUND)
	polygon.append(Vector2(1000, 600))
	polygon.append(Vector2(-40, 600))
	shape.polygon = polygon
	ground.add_child(shape)
	add_child(ground)
	spider = make_creature("Spider", 500.0, SPIDER_DROP, spider_legs(), SPIDER_COLOR, 1.0)
	crab = make_creature("Crab", 300.0, CRAB_DROP, crab_legs(), Color(0.86, 0.36, 0.22), -1.0)
	var body: Bone2D = spider["body"]
	Rig.disc(body, Vector2.ZERO, 17.0, SPIDER_COLOR, 3)
	Rig.disc(body, Vector2(20, -4), 10.0, SPIDER_COLOR.lightened(0.15), 3)
	eye = Rig.bone(body, "Eye", Vector2(24, -7), 6.0, 0.0)
	Rig.disc(eye, Vector2(3, 0), 3.0, Color(1.0, 0.85, 0.3), 4)
	eye_target = Rig.target(self, "EyeTarget", auto_aim(0.0))
	var look: Node2D = ClassDB.instantiate("LookAt2D")
	look.name = "EyeLookAt"
	look.bone = eye
	look.target = eye_target
	add_child(look)
	spider["look"] = look
	var shell: Bone2D = crab["body"]
	var points := PackedVector2Array()
	for i in 24:
		var a := TAU * i / 24.0
		points.append(Vector2(cos(a) * 34.0, sin(a) * 15.0 - 4.0))
	var poly := Polygon2D.new()
	poly.polygon = points
	poly.color = Color(0.86, 0.36, 0.22)
	poly.z_index = 3
	shell.add_child(poly)
	for side in [-1.0, 1.0]:
		Rig.disc(shell, Vector2(side * 9.0 + 14.0, -22.0), 4.0, Color(0.1, 0.1, 0.12), 4)
	for c in [spider, crab]:
		c["stepper"].foot_planted.connect(func(_leg: int, at: Vector2) -> void:
			puffs.append([at, 0.0])
			steps[c["name"]] += 1)
	var turn := Button.new()
	turn.text = "Turn the crab around"
	turn.pressed.connect(func() -> void: turn_around(crab))
	_controls.add_child(turn)
	add_toggle("Tilt the bodies", true, func(on: bool) -> void:
		for c in [spider, crab]:
			c["stepper"].tilt_body = on)


## Eight legs on a round body, knees high and far out (thigh and shin close in length, so each leg folds far enough
## for a swing over the block), feet spread 156 px.
func spider_legs() -> Array:
	var legs := []
	for x in [-78.0, -56.0, -34.0, -14.0, 14.0, 34.0, 56.0, 78.0]:
		var hip := Vector2(x * 0.18, 4.0)
		var foot := Vector2(x, SPIDER_DROP)
		legs.append({"hip": hip, "knee": Vector2((hip.x + foot.x) * 0.5 + signf(x) * 36.0, -10.0), "foot": foot})
	return legs


## Six legs low under a wide shell.
func crab_legs() -> Array:
	var legs := []
	for x in [-62.0, -44.0, -26.0, 26.0, 44.0, 62.0]:
		var hip := Vector2(x * 0.45, 6.0)
		var foot := Vector2(x, CRAB_DROP)
		legs.append({"hip": hip, "knee": Vector2((hip.x + foot.x) * 0.5 + signf(x) * 20.0, -12.0), "foot": foot})
	return legs


## A creature named `creature_name` at x (scale.x = `facing`): a root Node2D, its Skeleton2D with `legs` (drawn in
## `color`) and a LegStepper2D beside the skeleton, the body its `body`.
func make_creature(creature_name: String, x: float, drop: float, legs: Array, color: Color, facing: float) -> Dictionary:
	var root := Node2D.new()
	root.name = creature_name
	root.position = Vector2(x, height_at(x) - drop)
	root.scale = Vector2(facing, 1.0)
	add_child(root)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	root.add_child(skeleton)
	var built := Rig.legged_creature(skeleton, legs, 0.0, root)
	for i in built["bones"].size():
		var far: bool = i % 2 == 1
		for b: Bone2D in built["bones"][i]:
			Rig.limb(b, 6.0 if b.name.ends_with("_0") else 4.5, color.darkened(0.35 if far else 0.0), 1 if far else 2)
	var stepper: Node2D = ClassDB.instantiate("LegStepper2D")
	stepper.name = "LegStepper"
	root.add_child(stepper)
	stepper.legs = built["legs"]
	stepper.body = built["body"]
	stepper.step_distance = 30.0 if creature_name == "Spider" else 22.0
	stepper.step_height = 12.0 if creature_name == "Spider" else 8.0
	stepper.step_duration = 0.16
	stepper.tilt_body = true
	# The root already follows the ground (walk()): the body only evens out what the feet find under them.
	stepper.max_body_offset = 14.0
	if scripted:
		# Scripted runs advance a fixed 1/60 s per frame (demo.gd): the stepper steps by the same time, right after
		# the script moves the creature, so headless checks and screenshots see the same steps on every machine.
		stepper.update_mode = 2
	return {"name": creature_name.to_lower(), "root": root, "body": built["body"], "legs": built["legs"],
		"bones": built["bones"], "stepper": stepper, "drop": drop, "facing": facing, "velocity": 0.0}


func turn_around(c: Dictionary) -> void:
	c["facing"] = -c["facing"]
	c["root"].scale.x = c["facing"]
	turns += 1


## The spider's goal when nobody moves the pointer: back and forth over the slope, the plateau and the step.
func auto_aim(t: float) -> Vector2:
	return Vector2(680.0 + 200.0 * sin(t * 0.7 - 1.95), 300.0 + 40.0 * sin(t * 1.3))


## Moves a creature toward `goal_x` at most `speed` (accelerating at 400 px/s^2, turning around when it changes
## direction), its root gliding over the ground.
func walk(c: Dictionary, goal_x: float, speed: float, delta: float) -> void:
	var root: Node2D = c["root"]
	var wanted := clampf((goal_x - root.position.x) * 3.0, -speed, speed)
	c["velocity"] = move_toward(c["velocity"], wanted, 400.0 * delta)
	if absf(c["velocity"]) > 8.0 and signf(c["velocity"]) != c["facing"]:
		turn_around(c)
	root.position.x = clampf(root.position.x + c["velocity"] * delta, X_MIN, X_MAX)
	# The root glides over the ground's mean height under its feet (a capsule on a floor would): the bumps, the block
	# and the step are the feet's and the body's job.
	var ground := 0.0
	for k in 9:
		ground += height_at(root.position.x + (k - 4) * 16.0) / 9.0
	root.position.y = lerpf(root.position.y, ground - c["drop"], minf(1.0, 5.0 * delta))
	if scripted:
		c["stepper"].advance(delta)


func _demo_process(delta: float) -> void:
	_measure()
	var target := aim()
	walk(spider, target.x, SPIDER_SPEED, delta)
	eye_target.global_position = target
	var patrol: float = CRAB_PATROL[1] if crab["facing"] > 0.0 else CRAB_PATROL[0]
	if absf(crab["root"].position.x - patrol) < 4.0:
		turn_around(crab)
		patrol = CRAB_PATROL[1] if crab["facing"] > 0.0 else CRAB_PATROL[0]
	walk(crab, patrol, CRAB_SPEED, delta)
	for puff in puffs:
		puff[1] += delta
	puffs = puffs.filter(func(p: Array) -> bool: return p[1] < 0.5)
	set_status("spider: %d steps, %d feet in the air   crab (mirrored): %d steps, body raised %.1f px" % [
		steps["spider"], spider["stepper"].get_feet_in_air(), steps["crab"], crab["stepper"].get_body_raise()])


## What the legs did last frame (the steppers run after this script): each leg reached its stepper's goal, a planted
## foot sat on the ground, nothing was NaN.
func _measure() -> void:
	for c in [spider, crab]:
		var stepper: Node2D = c["stepper"]
		for i in c["legs"].size():
			var leg: Node2D = c["legs"][i]
			if leg.last_error < 0.0:
				continue
			var foot := Rig.bone_end(c["bones"][i][-1])
			if not foot.is_finite():
				not_finite += 1
				continue
			if stepper.is_foot_planted(i):
				worst_reach = maxf(worst_reach, leg.last_error)
				worst_planted = maxf(worst_planted, absf(foot.y - height_at(foot.x)))
				planted_frames += 1
			else:
				worst_swing_reach = maxf(worst_swing_reach, leg.last_error)


func _draw() -> void:
	var polygon := PackedVector2Array(GROUND)
	polygon.append(Vector2(1000, 600))
	polygon.append(Vector2(-40, 600))
	draw_colored_polygon(polygon, Color(0.18, 0.19, 0.24))
	draw_polyline(PackedVector2Array(GROUND), Color(0.55, 0.6, 0.75), 3.0, true)


func _draw_overlay(canvas: Node2D) -> void:
	for puff in puffs:
		var age: float = puff[1]
		canvas.draw_arc(puff[0], 3.0 + 18.0 * age, PI, TAU, 12, Color(0.85, 0.8, 0.7, 0.7 * (1.0 - age / 0.5)), 2.0, true)
	for c in [spider, crab]:
		for i in c["legs"].size():
			if c["stepper"].is_foot_planted(i):
				canvas.draw_circle(c["stepper"].get_foot_goal(i), 2.5, Color(ACCENT, 0.9))
	draw_marker(canvas, eye_target.global_position, 8.0, Color(0.4, 0.85, 1.0))


func get_ik_nodes() -> Array:
	return [spider["look"]]


## The demo runner's extra check: every planted leg reached its stepper's goal and sat on the ground, both creatures
## stepped and turned, and nothing was NaN.
func demo_problems() -> Array[String]:
	var problems: Array[String] = []
	if worst_reach > 0.05:
		problems.append("a planted leg missed its stepper's goal by %.4f px" % worst_reach)
	if planted_frames == 0:
		problems.append("no planted foot was measured")
	elif worst_planted > 0.05:
		problems.append("a planted foot was %.4f px off the ground" % worst_planted)
	if steps["spider"] < 20 or steps["crab"] < 20:
		problems.append("the creatures hardly stepped (%s)" % steps)
	if turns == 0:
		problems.append("nobody turned around")
	if not_finite > 0:
		problems.append("%d foot-frames with a non-finite foot" % not_finite)
	return problems


func summary() -> String:
	return "spider %d steps, crab (mirrored) %d steps, %d turns; planted legs' worst distance to their goal %.4f px (swinging legs' %.4f px), planted feet worst %.4f px off the ground over %d foot-frames" % [steps["spider"], steps["crab"], turns, worst_reach, worst_swing_reach, worst_planted, planted_frames]
