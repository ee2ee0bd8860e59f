extends "res://common/demo.gd"
## Ragdoll2D: a 12-bone figure that walks on the spot, falls with its momentum, takes hits and gets back up. The
## figure's bones get capsule bodies on the PhysicsServer2D; the floor and the step are StaticBody2D boxes. Turning
## around (scale.x = -1) makes the fall the mirror image. Not in the menu's list: open the scene and run it (F6).

const Rig := preload("res://common/rig.gd")
const Figure := preload("res://common/ragdoll_figure.gd")
const BONES := Figure.BONES
var character: Node2D
var bones: Array[Bone2D] = []
var ragdoll: Node2D


func demo_title() -> String:
	return "Ragdoll2D: fall, get hit, get up"


func demo_help() -> String:
	return "The figure walks on the spot. Fall hands its pose and velocity to physics bodies built on the PhysicsServer2D (no nodes added); Get up blends back to the animation over half a second. With strength 1 a hit makes it stagger and recover; at 0 it falls. Turn around (scale.x = -1): the fall is the mirror image."


func _demo_ready() -> void:
	for rect in [Rect2(0, 460, 960, 80), Rect2(560, 420, 400, 40)]:
		var body := StaticBody2D.new()
		body.position = rect.get_center()
		var shape := CollisionShape2D.new()
		shape.shape = RectangleShape2D.new()
		shape.shape.size = rect.size
		body.add_child(shape)
		var look := Polygon2D.new()
		look.polygon = PackedVector2Array([-rect.size / 2, Vector2(rect.size.x, -rect.size.y) / 2, rect.size / 2, Vector2(-rect.size.x, rect.size.y) / 2])
		look.color = Color(0.22, 0.25, 0.3)
		body.add_child(look)
		add_child(body)
	character = Node2D.new()
	character.position = Vector2(480, 390)
	add_child(character)
	bones = Figure.figure(character, Vector2.ZERO)["bones"]
	for b in bones:
		Rig.limb(b, 9.0 if b.name != "Head" else 16.0, Color(0.85, 0.75, 0.6))
	ragdoll = ClassDB.instantiate("Ragdoll2D")
	add_child(ragdoll)
	ragdoll.root_bone = bones[0]
	for i in range(1, BONES.size()):
		ragdoll.set_angle_limits(i, BONES[i][6], BONES[i][7])
	add_toggle("Fall (off: get up)", false, func(on: bool) -> void: ragdoll.start() if on else ragdoll.stop(0.5))
	add_toggle("Turn around", false, func(on: bool) -> void: character.scale.x = -1.0 if on else 1.0)
	add_toggle("Hit the chest", false, func(_on: bool) -> void: ragdoll.apply_impulse(bones[2], Vector2(40 * character.scale.x, -10), bones[2].global_position))
	add_slider("strength", 0.0, 1.0, 0.05, 0.0, func(v: float) -> void: ragdoll.strength = v)


func _demo_process(_delta: float) -> void:
	# A walk on the spot: thighs and arms swing, knees bend; the ragdoll takes this as its animated pose.
	var phase := time * 6.0
	bones[8].rotation = 0.15 + 0.5 * sin(phase)
	bones[10].rotation = -0.15 - 0.5 * sin(phase)
	bones[9].rotation = 0.1 + 0.4 * maxf(0.0, sin(phase + 1.2))
	bones[11].rotation = 0.05 + 0.4 * maxf(0.0, -sin(phase + 1.2))
	bones[4].rotation = 0.3 - 0.4 * sin(phase)
	bones[6].rotation = -0.3 + 0.4 * sin(phase)
	set_status("running: %s, strength %.2f" % [ragdoll.is_running(), ragdoll.strength])
