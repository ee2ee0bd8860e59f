extends "res://common/demo.gd"
## A 24-bone tentacle on a CcdChain2D chasing a fish. `max_angle_step` damps each joint's turn per sweep, so the
## tentacle curls toward the fish instead of snapping; the body is a tapered Line2D through the bone joints.

const Rig := preload("res://common/rig.gd")
const ROOT := Vector2(480, 560)
const BONES := 24
const BONE_LENGTH := 16.0

var bones: Array[Bone2D] = []
var ik: Node2D
var fish: Node2D
var body: Line2D
var rim: Line2D


func demo_title() -> String:
	return "Tentacle: CcdChain2D, 24 bones"


func demo_help() -> String:
	return "Move the mouse or drag: the tentacle reaches for the fish. CCD turns the joints from the tip down; Max angle step limits each turn per sweep, so small values curl smoothly and large ones snap."


func _demo_ready() -> void:
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.position = ROOT
	add_child(skeleton)
	var lengths := []
	lengths.resize(BONES)
	lengths.fill(BONE_LENGTH)
	var rotations := []
	rotations.resize(BONES)
	rotations.fill(0.12)
	rotations[0] = -PI / 2
	bones = Rig.chain(skeleton, lengths, rotations, "Bone%d")
	rim = add_body_line(34.0, Color(0.35, 0.12, 0.32), 0.12)
	body = add_body_line(28.0, Color(0.8, 0.32, 0.55), 0.12)
	var gradient := Gradient.new()
	gradient.set_color(0, Color(0.55, 0.18, 0.42))
	gradient.set_color(1, Color(0.98, 0.55, 0.6))
	body.gradient = gradient
	fish = Rig.target(self, "Fish", auto_aim(0.0))
	ik = ClassDB.instantiate("CcdChain2D")
	ik.name = "CcdChain2D"
	ik.root_bone = bones[0]
	ik.tip_bone = bones[-1]
	ik.target = fish
	ik.max_iterations = 64
	ik.max_angle_step = 0.06
	add_child(ik)
	add_slider("Max angle step (deg)", 0.5, 30.0, 0.5, rad_to_deg(ik.max_angle_step), func(v: float) -> void: ik.max_angle_step = deg_to_rad(v))
	add_slider("Max iterations", 1, 128, 1, ik.max_iterations, func(v: float) -> void: ik.max_iterations = int(v))


func auto_aim(t: float) -> Vector2:
	return Vector2(480, 340) + Vector2(sin(t * 0.7) * 200.0, sin(t * 1.4) * 60.0 - 15.0 * cos(t * 0.35))


func _demo_process(_delta: float) -> void:
	fish.global_position = aim()
	set_status("error %.2f px   sweeps %d" % [ik.last_error, ik.last_iterations])


func _physics_like_points() -> PackedVector2Array:
	var points := PackedVector2Array()
	for b in bones:
		points.append(b.global_position)
	points.append(Rig.bone_end(bones[-1]))
	return points


func _draw() -> void:
	# Sea floor and a rock the tentacle grows from; the body lines read the pose the IK wrote last frame.
	var points := _physics_like_points()
	body.points = points
	rim.points = points
	draw_rect(Rect2(0, 500, 960, 40), Color(0.1, 0.12, 0.16))
	draw_circle(ROOT + Vector2(0, 10), 46.0, Color(0.2, 0.22, 0.28))


func _draw_overlay(canvas: Node2D) -> void:
	# Suckers along the inner side, then the fish.
	for i in range(2, bones.size(), 2):
		var b := bones[i]
		var side := Vector2.from_angle(b.global_rotation).orthogonal()
		var r := lerpf(6.0, 2.0, float(i) / bones.size())
		canvas.draw_circle(b.global_position + side * r * 1.6, r, Color(1.0, 0.8, 0.82, 0.9))
	var f := fish.global_position
	var heading := Vector2(cos(time * 0.7), 0).sign().x if cos(time * 0.7) != 0 else 1.0
	var s := Vector2(heading, 1)
	var fish_color := Color(0.45, 0.85, 1.0)
	canvas.draw_colored_polygon(PackedVector2Array([f + Vector2(16, 0) * s, f + Vector2(0, -9) * s, f + Vector2(-12, 0) * s, f + Vector2(0, 9) * s]), fish_color)
	canvas.draw_colored_polygon(PackedVector2Array([f + Vector2(-10, 0) * s, f + Vector2(-22, -8) * s, f + Vector2(-22, 8) * s]), fish_color.darkened(0.2))
	canvas.draw_circle(f + Vector2(8, -2) * s, 2.0, Color(0.05, 0.05, 0.1))


func get_ik_nodes() -> Array:
	return [ik]


func summary() -> String:
	return "%d bones, max_angle_step %.2f rad" % [bones.size(), ik.max_angle_step]
