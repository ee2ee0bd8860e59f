extends "res://walker.gd"
## The walker with secondary motion: a SpringChain2D tail on its hip and a SpringChain2D ponytail on its head. The
## body is IK-driven (TwoBoneIk2D legs set the hip's bob, a LookAt2D turns the head), and the springs run after
## the IK in the same frame, so the tail and hair hang off the solved pose. Turning around sets scale.x = -1 on the
## character: the tail swings on as the mirror image instead of whipping across. The tail collides with the
## world (`use_colliders`): a wall at each end of the walk that the tail's tip rests against when the walker turns
## there, and a beam overhead.

var tail_spring: Node2D
var hair_spring: Node2D
var wind := false


func demo_title() -> String:
	return "Tail and hair: SpringChain2D on an IK body"


func demo_help() -> String:
	return "The tail and the ponytail are SpringChain2D nodes: they lag behind the walking, bobbing body, hang under gravity and settle. The legs and head are IK; the springs run after them. Turning around (scale.x = -1) carries the swing over mirrored, without a whip. With use_colliders the tail's tip rests against the walls (StaticBody2D shapes) when the walker turns. Arrow keys turn; the toggle adds wind."


func _demo_ready() -> void:
	super()
	var fur := Color(0.85, 0.5, 0.18)
	var hair_colour := Color(0.35, 0.22, 0.15)
	# A 7-bone tail from the hip, pointing back in the character's frame and curling up like a cat's.
	var tail := Rig.chain(hip, [20.0, 18.5, 17.0, 15.5, 14.0, 12.5, 11.0], [2.75, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2], "Tail%d")
	tail[0].position = Vector2(0, 6)
	tail[0].rest = tail[0].transform
	for i in tail.size():
		Rig.limb(tail[i], 13.0 - i * 1.3, fur.lightened(i * 0.05), -3)
	tail_spring = ClassDB.instantiate("SpringChain2D")
	tail_spring.name = "TailSpring"
	tail_spring.root_bone = tail[0]
	tail_spring.tip_bone = tail[-1]
	tail_spring.stiffness = 160.0
	tail_spring.damping = 7.0
	tail_spring.gravity = Vector2(0, 250)
	# Stiffer at the root, looser toward the tip.
	var curve := Curve.new()
	curve.add_point(Vector2(0, 1.0))
	curve.add_point(Vector2(1, 0.6))
	tail_spring.stiffness_curve = curve
	tail_spring.set_angle_limits(0, 1.6, 3.6)
	# Colliders: each bone's end keeps 6 px (4 px at the tip) from the beam and the walls.
	tail_spring.use_colliders = true
	tail_spring.collision_radius = 6.0
	var radius_curve := Curve.new()
	radius_curve.add_point(Vector2(0, 1.0))
	radius_curve.add_point(Vector2(1, 0.66))
	tail_spring.collision_radius_curve = radius_curve
	add_child(tail_spring)
	add_obstacle("Beam", Vector2(480, ground_y(480) - 172), Vector2(240, 14))
	for x in [X_MIN - 85.0, X_MAX + 85.0]:
		add_obstacle("Wall", Vector2(x, ground_y(x) - 100), Vector2(14, 200))
	# A 5-bone ponytail from the back of the head, hanging off the LookAt2D-driven head.
	var head: Bone2D = head_ik.bone
	var strands := Rig.chain(head, [12.0, 12.0, 12.0, 12.0, 12.0], [2.2, 0.15, 0.15, 0.15, 0.15], "Hair%d")
	strands[0].position = Vector2(-8, -22)
	strands[0].rest = strands[0].transform
	for i in strands.size():
		Rig.limb(strands[i], 10.0 - i * 1.2, hair_colour, 1)
	hair_spring = ClassDB.instantiate("SpringChain2D")
	hair_spring.name = "HairSpring"
	hair_spring.root_bone = strands[0]
	hair_spring.tip_bone = strands[-1]
	hair_spring.stiffness = 60.0
	hair_spring.damping = 4.0
	hair_spring.gravity = Vector2(0, 980)
	add_child(hair_spring)
	add_toggle("Wind", false, func(on: bool) -> void: wind = on)
	if scripted:
		# Headless runs move the body by a fixed 1/60 s per frame whatever the real frame time: step the springs
		# by the same time, still after the IK nodes (priority 100) in the same frame.
		var clock := FixedClock.new()
		clock.springs = [tail_spring, hair_spring]
		clock.process_priority = 120
		add_child(clock)
		for spring in clock.springs:
			spring.update_mode = 2


## A StaticBody2D box the springs collide with (layer 1), drawn as a plank.
func add_obstacle(label: String, at: Vector2, size: Vector2) -> void:
	var body := StaticBody2D.new()
	body.name = label
	body.position = at
	var shape := CollisionShape2D.new()
	var rect := RectangleShape2D.new()
	rect.size = size
	shape.shape = rect
	body.add_child(shape)
	var plank := Polygon2D.new()
	plank.polygon = PackedVector2Array([-size / 2, Vector2(size.x, -size.y) / 2, size / 2, Vector2(-size.x, size.y) / 2])
	plank.color = Color(0.45, 0.36, 0.28)
	body.add_child(plank)
	add_child(body)


class FixedClock extends Node:
	var springs: Array = []

	func _process(_delta: float) -> void:
		for spring in springs:
			spring.advance(1.0 / 60.0)


func _demo_process(delta: float) -> void:
	var smoothed_y := walker.position.y
	super(delta)
	# The walker's hip jumps a few pixels when a foot lifts off; ease it so the tail shows the bob, not the jolt.
	walker.position.y = lerpf(smoothed_y, walker.position.y, 1.0 - exp(-20.0 * (1.0 / 60.0 if scripted else delta)))
	var gust := Vector2(-700.0 - 400.0 * sin(time * 2.3), 0.0) if wind else Vector2.ZERO
	tail_spring.external_force = gust
	hair_spring.external_force = gust
	set_status("tail %.2f rad, hair %.2f rad from their poses   legs %.3f / %.3f px   facing %s" % [tail_spring.last_error, hair_spring.last_error, legs[0].last_error, legs[1].last_error, "right" if facing > 0.0 else "left (scale.x = -1)"])


func get_spring_nodes() -> Array:
	return [tail_spring, hair_spring]
