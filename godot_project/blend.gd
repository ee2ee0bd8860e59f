extends "res://common/demo.gd"
## An AnimationPlayer waves an arm; a FabrikChain2D on the same bones reaches for the ball on top of it. The IK
## node runs after the player in the same frame, and `weight` blends the animated pose (0) and the IK pose (1).

const Rig := preload("res://common/rig.gd")
const SHOULDER := Vector2(470, 250)
const LENGTHS := [90.0, 80.0, 34.0]
## Key values of the wave, per bone, at 0 s, 0.8 s and 1.6 s (the loop returns to the first).
const WAVE := [[-1.2, -1.9, -1.2], [-0.9, -0.2, -0.9], [0.5, -0.5, 0.5]]

var bones: Array[Bone2D] = []
var ik: Node2D
var ball: Node2D
var player: AnimationPlayer
var animation: Animation
var weight_slider: HSlider
var skeleton: Skeleton2D


func demo_title() -> String:
	return "Blend: AnimationPlayer + IK weight"


func demo_help() -> String:
	return "An AnimationPlayer waves the arm (grey ghost = the animation alone). The FabrikChain2D runs after it in the same frame and reaches for the ball. Drag the weight slider: 0 is pure animation, 1 is pure IK. Move the mouse to move the ball."


func _demo_ready() -> void:
	skeleton = Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.position = SHOULDER
	add_child(skeleton)
	var parent: Node = skeleton
	for i in LENGTHS.size():
		var at := Vector2.ZERO if i == 0 else Vector2(LENGTHS[i - 1], 0)
		var b := Rig.bone(parent, "Bone%d" % i, at, LENGTHS[i], 0.0, WAVE[i][0])
		Rig.limb(b, 20.0 - 4.0 * i, Color(0.93, 0.78, 0.62).darkened(0.1 * i))
		bones.append(b)
		parent = b
	player = AnimationPlayer.new()
	player.name = "AnimationPlayer"
	animation = Animation.new()
	animation.length = 1.6
	animation.loop_mode = Animation.LOOP_LINEAR
	var path := "Skeleton"
	for i in LENGTHS.size():
		path += "/Bone%d" % i
		var track := animation.add_track(Animation.TYPE_VALUE)
		animation.track_set_path(track, path + ":rotation")
		animation.track_set_interpolation_type(track, Animation.INTERPOLATION_CUBIC)
		# Keys that differ, so the player writes the bones every frame and the IK always starts from the animation.
		for k in 3:
			animation.track_insert_key(track, 0.8 * k, WAVE[i][k])
	var library := AnimationLibrary.new()
	library.add_animation("wave", animation)
	player.add_animation_library("", library)
	add_child(player)
	player.play("wave")
	ball = Rig.target(self, "Ball", auto_aim(0.0))
	ik = ClassDB.instantiate("FabrikChain2D")
	ik.name = "FabrikChain2D"
	ik.root_bone = bones[0]
	ik.tip_bone = bones[-1]
	ik.target = ball
	ik.weight = 1.0 if scripted else 0.6
	ik.max_iterations = 32
	add_child(ik)
	weight_slider = add_slider("IK weight", 0.0, 1.0, 0.01, ik.weight, func(v: float) -> void: ik.weight = v)


func auto_aim(t: float) -> Vector2:
	return SHOULDER + Vector2(120.0 + 45.0 * cos(t * 0.9), 30.0 + 55.0 * sin(t * 1.7))


func _demo_process(_delta: float) -> void:
	ball.global_position = aim()
	if scripted:
		# Full IK first (checked: the arm must reach the ball), then the weight swings 1 -> 0 -> 1.
		var w := 1.0 if time < 2.5 else 0.5 + 0.5 * cos((time - 2.5) * 1.5)
		ik.weight = w
		weight_slider.set_value_no_signal(w)
	set_status("weight %.2f   error %.2f px" % [ik.weight, ik.last_error])


## The animation's own pose for the current frame (joints, then the tip's end), read from the tracks.
func animated_joints() -> PackedVector2Array:
	var points := PackedVector2Array()
	var frame := skeleton.global_transform
	for i in bones.size():
		var rotation: float = animation.value_track_interpolate(i, player.current_animation_position)
		var at := Vector2.ZERO if i == 0 else Vector2(LENGTHS[i - 1], 0)
		frame = frame * Transform2D(rotation, at)
		points.append(frame.origin)
	points.append(frame * Vector2(LENGTHS[-1], 0))
	return points


func _draw() -> void:
	# A simple body the arm belongs to.
	draw_rect(Rect2(SHOULDER.x - 70, SHOULDER.y - 10, 70, 150), Color(0.3, 0.55, 0.85))
	draw_circle(SHOULDER + Vector2(-35, -50), 32.0, Color(0.93, 0.78, 0.62))
	draw_circle(SHOULDER + Vector2(-22, -56), 4.0, Color(0.1, 0.1, 0.15))
	draw_rect(Rect2(0, 460, 960, 80), Color(0.12, 0.13, 0.17))


func _draw_overlay(canvas: Node2D) -> void:
	canvas.draw_polyline(animated_joints(), Color(1, 1, 1, 0.35), 6.0, true)
	draw_marker(canvas, ball.global_position, 12.0, Color(1.0, 0.45, 0.35))


func get_ik_nodes() -> Array:
	# Only at full weight must the hand be on the ball; lower weights blend toward the animation on purpose.
	return [ik] if ik.weight >= 1.0 else []


func summary() -> String:
	return "animation at %.2f s, weight swung 1 -> 0 -> 1" % player.current_animation_position
