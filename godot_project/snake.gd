extends "res://common/demo.gd"
## PathChain2D: a 16-bone snake slides along a closed path drawn as a Path2D (follow mode: its root bone moves onto
## the curve at `offset`, which runs with time), and two whips, one the mirror image of the other (scale.x = -1 on
## its character), are swept along a curve that changes every frame (fit mode: each whip's handle stays put, every
## joint lies on the curve, bone lengths exact). The mouse bends the whips' curve.

const Rig := preload("res://common/rig.gd")
const SNAKE_BONES := 16
const SNAKE_BONE := 18.0
const WHIP_BONES := 12
const WHIP_BONE := 22.0
## Where the whips' handles are; the second character is turned around (scale.x = -1).
const HANDLES := [Vector2(130, 478), Vector2(830, 478)]

var snake: Node2D
var snake_bones: Array[Bone2D] = []
var snake_path: Path2D
var whips: Array[Node2D] = []
var whip_bones: Array = []
var whip_curve: Curve2D
var speed := 90.0
var snake_body: Line2D
var snake_rim: Line2D
var whip_lines: Array[Line2D] = []
var whip_paths: Array[Path2D] = []


func demo_title() -> String:
	return "Snake and whips: PathChain2D"


func demo_help() -> String:
	return "The snake's root bone follows the path at an offset that grows with time (follow mode): the whole chain slides along the closed loop. The whips keep their handles and lie along a curve the mouse bends (fit mode); the right one is the mirror image. Every joint sits on its curve and no bone changes length."


func _demo_ready() -> void:
	# The snake: its skeleton anywhere; follow mode puts its root bone on the loop.
	var skeleton := Skeleton2D.new()
	skeleton.name = "SnakeSkeleton"
	skeleton.position = Vector2(480, 330)
	add_child(skeleton)
	var lengths := []
	lengths.resize(SNAKE_BONES)
	lengths.fill(SNAKE_BONE)
	var angles := []
	angles.resize(SNAKE_BONES)
	angles.fill(0.15)
	snake_bones = Rig.chain(skeleton, lengths, [], "Snake%d", angles)
	snake_path = Path2D.new()
	snake_path.name = "Loop"
	snake_path.position = Vector2(470, 330)
	snake_path.curve = _loop()
	add_child(snake_path)
	snake_rim = add_body_line(26.0, Color(0.16, 0.3, 0.14), 0.35)
	snake_body = add_body_line(20.0, Color(0.45, 0.75, 0.35), 0.35)
	var scales := Gradient.new()
	scales.set_color(0, Color(0.62, 0.86, 0.38))
	scales.set_color(1, Color(0.3, 0.55, 0.25))
	snake_body.gradient = scales
	snake = ClassDB.instantiate("PathChain2D")
	snake.name = "SnakePath"
	snake.path = snake_path
	snake.root_bone = snake_bones[0]
	snake.tip_bone = snake_bones[-1]
	snake.mode = PathChain2D.MODE_FOLLOW
	snake.tip_follows_tangent = true
	add_child(snake)
	# The whips: one curve, two characters (the second mirrored); each whip fits its character's Path2D.
	whip_curve = Curve2D.new()
	_bend_whip_curve(Vector2(150, -120))
	for side in 2:
		var character := Node2D.new()
		character.name = "Whip%d" % side
		character.position = HANDLES[side]
		character.scale = Vector2(-1, 1) if side == 1 else Vector2.ONE
		add_child(character)
		var whip_skeleton := Skeleton2D.new()
		character.add_child(whip_skeleton)
		var whip_lengths := []
		whip_lengths.resize(WHIP_BONES)
		whip_lengths.fill(WHIP_BONE)
		var bones := Rig.chain(whip_skeleton, whip_lengths, [-0.9], "Whip%d", [])
		whip_bones.append(bones)
		var path := Path2D.new()
		path.curve = whip_curve
		character.add_child(path)
		var whip: Node2D = ClassDB.instantiate("PathChain2D")
		whip.name = "WhipPath%d" % side
		whip.path = path
		whip.root_bone = bones[0]
		whip.tip_bone = bones[-1]
		character.add_child(whip)
		whips.append(whip)
		whip_paths.append(path)
		whip_lines.append(add_body_line(9.0, Color(0.72, 0.48, 0.26), 0.35))
	add_slider("Snake speed (px/s)", 0, 300, 5, speed, func(v: float) -> void: speed = v)
	add_toggle("Snake's head along the path", true, func(on: bool) -> void: snake.tip_follows_tangent = on)


## A wavy closed loop around the origin (its last point is its first: closed).
func _loop() -> Curve2D:
	var curve := Curve2D.new()
	var corners := [Vector2(-300, 10), Vector2(-170, -80), Vector2(40, -30), Vector2(250, -95), Vector2(330, 20), Vector2(150, 100), Vector2(-100, 60), Vector2(-300, 10)]
	for i in corners.size():
		var before: Vector2 = corners[i - 1 if i > 0 else corners.size() - 2]
		var after: Vector2 = corners[i + 1 if i < corners.size() - 1 else 1]
		var handle := (after - before) * 0.22
		curve.add_point(corners[i], -handle, handle)
	return curve


## The whips' curve from the handle (the origin), bent toward `toward` (character space).
func _bend_whip_curve(toward: Vector2) -> void:
	var middle := Vector2(60, -110) + (toward - Vector2(60, -110)) * 0.4
	var points := [Vector2.ZERO, middle, toward, toward + (toward - middle).normalized() * 140.0]
	if whip_curve.point_count != points.size():
		whip_curve.clear_points()
		for p in points:
			whip_curve.add_point(p)
	for i in points.size():
		whip_curve.set_point_position(i, points[i])
		var along: Vector2 = points[mini(i + 1, points.size() - 1)] - points[maxi(i - 1, 0)]
		whip_curve.set_point_in(i, -along * 0.25)
		whip_curve.set_point_out(i, along * 0.25)


func auto_aim(t: float) -> Vector2:
	return Vector2(330 + 70 * sin(t * 0.9), 260 + 60 * cos(t * 1.3))


func _demo_process(delta: float) -> void:
	snake.offset = fposmod(snake.offset + speed * delta, snake_path.curve.get_baked_length())
	# The whips' curve bends toward the pointer, in the first (unturned) character's space.
	_bend_whip_curve(aim() - HANDLES[0])
	set_status("snake offset %.0f px   off the curve: snake %.3f px, whips %.3f / %.3f px" % [snake.offset, snake.last_error, whips[0].last_error, whips[1].last_error])


func _joints(bones: Array) -> PackedVector2Array:
	var points := PackedVector2Array()
	for b: Bone2D in bones:
		points.append(b.global_position)
	points.append(Rig.bone_end(bones[-1]))
	return points


func _draw() -> void:
	draw_rect(Rect2(0, 490, 960, 50), Color(0.1, 0.12, 0.16))
	var loop := PackedVector2Array()
	for p in snake_path.curve.get_baked_points():
		loop.append(snake_path.position + p)
	draw_polyline(loop, Color(0.35, 0.4, 0.5, 0.7), 2.0, true)
	# The whips' curve, faint; the bodies read the pose the fit wrote last frame (the snake head first).
	for path in whip_paths:
		var line := PackedVector2Array()
		for p in path.curve.get_baked_points():
			line.append(path.to_global(p))
		draw_polyline(line, Color(0.55, 0.5, 0.42, 0.35), 1.5, true)
	var body := _joints(snake_bones)
	body.reverse()
	snake_body.points = body
	snake_rim.points = body
	for side in 2:
		whip_lines[side].points = _joints(whip_bones[side])


func _draw_overlay(canvas: Node2D) -> void:
	var head: Bone2D = snake_bones[-1]
	var end := Rig.bone_end(head)
	var forward := (end - head.global_position).normalized()
	var tongue := end + forward * 8.0
	canvas.draw_line(end + forward * 2.0, tongue, Color(0.9, 0.25, 0.3), 2.0, true)
	for side in [-1.0, 1.0]:
		canvas.draw_line(tongue, tongue + (forward + forward.orthogonal() * side * 0.7) * 4.0, Color(0.9, 0.25, 0.3), 2.0, true)
		canvas.draw_circle(end - forward * 7.0 + forward.orthogonal() * side * 5.0, 2.6, Color(0.98, 0.9, 0.4))
		canvas.draw_circle(end - forward * 6.5 + forward.orthogonal() * side * 5.0, 1.3, Color(0.05, 0.05, 0.08))
	for side in 2:
		draw_marker(canvas, HANDLES[side], 7.0, Color(0.9, 0.8, 0.5))
	draw_marker(canvas, aim(), 6.0, ACCENT)


func get_ik_nodes() -> Array:
	return [snake, whips[0], whips[1]]


## The whips' mirror difference (px): the right whip's joints against the left's mirrored about x = 480.
func mirror_check() -> float:
	var worst := 0.0
	var left := _joints(whip_bones[0])
	var right := _joints(whip_bones[1])
	for i in left.size():
		worst = maxf(worst, Vector2(960.0 - left[i].x, left[i].y).distance_to(right[i]))
	return worst


func summary() -> String:
	return "snake %d bones (follow), whips %d bones (fit, one mirrored)" % [SNAKE_BONES, WHIP_BONES]
