extends "res://walker.gd"
## The walker with secondary motion: a SpringChain2D tail on its hip and a SpringChain2D ponytail on its head. The
## body is IK-driven (TwoBoneIk2D legs set the hip's bob, a LookAt2D turns the head), and the springs run after
## the IK in the same frame, so the tail and hair hang off the solved pose. Turning around sets scale.x = -1 on the
## character: the tail swings on as the mirror image instead of whipping across. The tail collides with the
## world (`use_colliders`): it is heavy enough to drag, so it rests on the ground (StaticBody2D boxes) and slides
## along it as the walker walks, up and over a low platform whose sides it slides along; walls close the walk's ends.

## How far beyond each end of the walk a wall stands (px): just out of the tail's reach when a turn there mirrors
## it to the wall's side.
const WALL_GAP := 76.0
## The level ground's height and the platform on it (global px).
const LEVEL_Y := 450.0
const PLATFORM_FROM := 400.0
const PLATFORM_TO := 580.0
const PLATFORM_HEIGHT := 16.0

var tail_spring: Node2D
var hair_spring: Node2D
var wind := false
## The tail's bone ends against the ground: the least clearance seen (px beyond each end's collision radius; below
## zero an end would be inside the ground), and the frames with an end resting on it (within 1 px).
var least_clearance := INF
var ground_frames := 0
## Frames with a tail end against a wall (within 1 px of its radius): the platform's sides or the end walls.
var wall_frames := 0
## The walls' inner faces (x, global px): where the walk's ends are walled in.
var wall_faces: Array[float] = []
var measured_frames := 0


func demo_title() -> String:
	return "Tail and hair: SpringChain2D on an IK body"


func demo_help() -> String:
	return "The tail and the ponytail are SpringChain2D nodes: they lag behind the walking, bobbing body, hang under gravity and settle. The legs and head are IK; the springs run after them. Turning around (scale.x = -1) carries the swing over mirrored, without a whip. With use_colliders the heavy tail rests on the ground and slides along it, up and over the platform (StaticBody2D boxes). Arrow keys turn; the toggle adds wind."


func _demo_ready() -> void:
	super()
	var fur := Color(0.85, 0.5, 0.18)
	var hair_colour := Color(0.35, 0.22, 0.15)
	# A 7-bone tail from the hip, pointing back and down in the character's frame: long and heavy enough to drag on
	# the ground behind the walker; drawn as it lies on level ground, so it does not fall at the start.
	var tail := Rig.chain(hip, [22.0, 21.0, 20.0, 19.0, 18.0, 17.0, 16.0], [1.95, 0.0, -0.05, 0.1, 1.0, 0.2, 0.0], "Tail%d")
	tail[0].position = Vector2(0, 6)
	tail[0].rest = tail[0].transform
	for i in tail.size():
		Rig.limb(tail[i], 13.0 - i * 1.3, fur.lightened(i * 0.05), -3)
	tail_spring = ClassDB.instantiate("SpringChain2D")
	tail_spring.name = "TailSpring"
	tail_spring.root_bone = tail[0]
	tail_spring.tip_bone = tail[-1]
	tail_spring.stiffness = 70.0
	tail_spring.damping = 18.0
	tail_spring.gravity = Vector2(0, 1200)
	# Stiffer at the root, looser toward the tip, so the tail's far half lies on the ground.
	var curve := Curve.new()
	curve.add_point(Vector2(0, 1.0))
	curve.add_point(Vector2(1, 0.25))
	tail_spring.stiffness_curve = curve
	tail_spring.set_angle_limits(0, 1.6, PI)
	# Colliders: each bone's end keeps 6 px (4 px at the tip) from the ground and the walls.
	tail_spring.use_colliders = true
	tail_spring.collision_radius = 6.0
	var radius_curve := Curve.new()
	radius_curve.add_point(Vector2(0, 1.0))
	radius_curve.add_point(Vector2(1, 0.66))
	tail_spring.collision_radius_curve = radius_curve
	add_child(tail_spring)
	add_ground_body()
	for x in [X_MIN - WALL_GAP, X_MAX + WALL_GAP]:
		add_obstacle("Wall", Vector2(x, ground_y(x) - 100), Vector2(14, 200))
	wall_faces = [X_MIN - WALL_GAP + 7.0, X_MAX + WALL_GAP - 7.0, PLATFORM_FROM, PLATFORM_TO]
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
		clock.after_step = _measure_ground
		clock.process_priority = 120
		add_child(clock)
		for spring in clock.springs:
			spring.update_mode = 2


## This scene's ground: level, with a low platform in the middle of the walk that the walker steps onto. A turn
## mirrors the tail about the hips, so the walker turns on level ground, where the mirrored tail lands where it lay.
func ground_y(x: float) -> float:
	return LEVEL_Y - PLATFORM_HEIGHT if x >= PLATFORM_FROM and x <= PLATFORM_TO else LEVEL_Y


## The ground as a StaticBody2D (layer 1) the tail rests on: a wide box for the level ground and a box for the
## platform, whose sides are the walls the dragging tail slides up and down.
func add_ground_body() -> void:
	var body := StaticBody2D.new()
	body.name = "Ground"
	var level := CollisionShape2D.new()
	var box := RectangleShape2D.new()
	box.size = Vector2(1200, 200)
	level.shape = box
	level.position = Vector2(480, LEVEL_Y + 100)
	body.add_child(level)
	add_child(body)
	var width := PLATFORM_TO - PLATFORM_FROM
	add_obstacle("Platform", Vector2(PLATFORM_FROM + width / 2, LEVEL_Y - PLATFORM_HEIGHT / 2), Vector2(width, PLATFORM_HEIGHT))


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
	## Called once the springs have stepped: the frame's final pose.
	var after_step: Callable

	func _process(_delta: float) -> void:
		for spring in springs:
			spring.advance(1.0 / 60.0)
		after_step.call()


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


## Each tail bone's end against the ground under it: the vertical gap minus the end's radius (the ground's slope is
## gentle, so the vertical gap is within 2% of the normal distance and never smaller).
func _measure_ground() -> void:
	if not tail_spring.use_colliders:
		return
	var bone: Bone2D = tail_spring.tip_bone
	var resting := false
	var walled := false
	var ends := 0
	while bone != null:
		var end := bone.global_transform * Vector2(bone.get_length(), 0).rotated(bone.get_bone_angle())
		var along := 1.0 - float(ends) / 6.0
		var radius: float = tail_spring.collision_radius * tail_spring.collision_radius_curve.sample(along)
		var clearance := ground_y(end.x) - end.y - radius
		least_clearance = minf(least_clearance, clearance)
		resting = resting or clearance < 1.0
		for face in wall_faces:
			walled = walled or (absf(end.x - face) < radius + 1.0 and end.y > LEVEL_Y - PLATFORM_HEIGHT - radius)
		ends += 1
		if bone == tail_spring.root_bone:
			break
		bone = bone.get_parent() as Bone2D
	measured_frames += 1
	if resting:
		ground_frames += 1
	if walled:
		wall_frames += 1


func summary() -> String:
	return "%s; tail on the ground in %d of %d frames, against a wall in %d, least clearance %.3f px" % [super(), ground_frames, measured_frames, wall_frames, least_clearance]


## The demo check fails when the tail sinks into the ground or never reaches it.
func demo_problems() -> Array[String]:
	var problems: Array[String] = []
	if least_clearance < -0.5:
		problems.append("a tail bone's end sank %.2f px into the ground" % -least_clearance)
	if ground_frames * 2 < measured_frames:
		problems.append("the tail rested on the ground in only %d of %d frames" % [ground_frames, measured_frames])
	return problems
