extends "res://common/demo.gd"
## A four-joint robot arm on a FabrikChain2D with per-joint angle limits; the limits are drawn as arcs.

const Rig := preload("res://common/rig.gd")
const BASE := Vector2(480, 480)
const LENGTHS := [120.0, 100.0, 70.0, 36.0]
## Per-bone [min, max] local rotation, radians. Bone 0 is measured from the base (pointing right = 0).
const LIMITS := [[-PI + 0.2, -0.2], [-2.0, 2.0], [-1.9, 1.9], [-1.0, 1.0]]

var bones: Array[Bone2D] = []
var ik: Node2D
var target: Node2D
var limits_on := true


func demo_title() -> String:
	return "Robot arm: FabrikChain2D + angle limits"


func demo_help() -> String:
	return "Move the mouse (or drag a finger): the gripper follows it. Orange arcs are each joint's allowed range; the arm never leaves them. Turn the limits off to see the free solve, lower the iterations to see FABRIK converge."


func _demo_ready() -> void:
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.position = BASE
	add_child(skeleton)
	var parent: Node = skeleton
	var rest := [-PI / 2, 0.6, 0.5, 0.3]
	for i in LENGTHS.size():
		var at := Vector2.ZERO if i == 0 else Vector2(LENGTHS[i - 1], 0)
		var b := Rig.bone(parent, "Bone%d" % i, at, LENGTHS[i], 0.0, rest[i])
		Rig.limb(b, 22.0 - 4.0 * i, Color(0.55, 0.62, 0.72).lerp(Color(0.8, 0.85, 0.9), i / 3.0))
		Rig.disc(b, Vector2.ZERO, 13.0 - 2.0 * i, Color(0.25, 0.28, 0.34), 1)
		bones.append(b)
		parent = b
	target = Rig.target(self, "Target", Vector2(600, 250))
	ik = ClassDB.instantiate("FabrikChain2D")
	ik.name = "FabrikChain2D"
	ik.root_bone = bones[0]
	ik.tip_bone = bones[-1]
	ik.target = target
	ik.max_iterations = 16
	add_child(ik)
	_apply_limits(true)
	add_toggle("Angle limits", true, _apply_limits)
	add_slider("Max iterations", 1, 32, 1, 16, func(v: float) -> void: ik.max_iterations = int(v))


func _apply_limits(on: bool) -> void:
	limits_on = on
	for i in LIMITS.size():
		if on:
			ik.set_angle_limits(i, LIMITS[i][0], LIMITS[i][1])
		else:
			ik.clear_angle_limits(i)


func auto_aim(t: float) -> Vector2:
	return Vector2(480, 290) + Vector2(sin(t * 0.9) * 190.0, sin(t * 1.8) * 70.0 - cos(t * 0.45) * 30.0)


func _demo_process(_delta: float) -> void:
	target.global_position = aim()
	set_status("error %.2f px   iterations %d" % [ik.last_error, ik.last_iterations])


func _draw() -> void:
	# The floor and the base.
	draw_rect(Rect2(0, BASE.y + 18, 960, 80), Color(0.12, 0.13, 0.17))
	draw_rect(Rect2(BASE.x - 50, BASE.y - 4, 100, 24), Color(0.3, 0.33, 0.4))


func _draw_overlay(canvas: Node2D) -> void:
	if limits_on:
		for i in bones.size():
			var b := bones[i]
			var parent_angle: float = (b.get_parent() as Node2D).global_rotation
			var from: float = parent_angle + LIMITS[i][0]
			var to: float = parent_angle + LIMITS[i][1]
			var radius := 44.0 - 6.0 * i
			var c := b.global_position
			canvas.draw_arc(c, radius, from, to, 32, Color(ACCENT, 0.8), 2.0, true)
			canvas.draw_line(c, c + Vector2.from_angle(from) * radius, Color(ACCENT, 0.5), 1.5, true)
			canvas.draw_line(c, c + Vector2.from_angle(to) * radius, Color(ACCENT, 0.5), 1.5, true)
			canvas.draw_line(c, c + Vector2.from_angle(b.global_rotation) * radius, Color(1, 1, 1, 0.9), 2.0, true)
	draw_marker(canvas, target.global_position, 10.0, Color(0.4, 0.85, 1.0))


func get_ik_nodes() -> Array:
	return [ik]


func summary() -> String:
	return "limits %s" % ("on" if limits_on else "off")
