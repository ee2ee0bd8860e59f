extends Control
## The menu: one button per demo, with a line on what it shows.

const DEMOS := [
	["Scene setup", "res://setup.tscn", "built in the editor: two arms, one mirrored, one target"],
	["Robot arm", "res://arm.tscn", "FabrikChain2D with angle limits, drawn as arcs"],
	["Tentacle", "res://tentacle.tscn", "24-bone CcdChain2D that curls after a fish"],
	["Walker", "res://walker.tscn", "TwoBoneIk2D legs on uneven ground, LookAt2D head, mirrored turns"],
	["Two hands", "res://two_hands.tscn", "FabrikRig2D: both hands on one sword bend one spine, mirrored copy"],
	["Tail and hair", "res://tail.tscn", "SpringChain2D tail and ponytail on the IK walker, mirrored turns"],
	["Slopes and stairs", "res://stairs.tscn", "FootGrounder2D: feet planted on slopes and steps, hips lowered"],
	["Snake and whips", "res://snake.tscn", "PathChain2D: a snake slides along a path, whips follow a curve"],
	["Legs that walk", "res://stepper.tscn", "LegStepper2D: a spider and a mirrored crab step over bumps and a slope"],
	["Animation blend", "res://blend.tscn", "AnimationPlayer + IK on top, weight on a slider"],
	["Followers", "res://followers.tscn", "CopyTransform2D: eyes follow the head, a sword the hand, wheels the x"],
	["Stress test", "res://stress.tscn", "thousands of chains: Reach2D vs Godot's built-in FABRIK"],
]

## Set by the demo runner; the menu has nothing to drive.
var scripted := false


func _ready() -> void:
	var background := ColorRect.new()
	background.color = Color(0.07, 0.08, 0.11)
	background.set_anchors_preset(Control.PRESET_FULL_RECT)
	add_child(background)
	var center := CenterContainer.new()
	center.set_anchors_preset(Control.PRESET_FULL_RECT)
	add_child(center)
	var box := VBoxContainer.new()
	# Twelve demos in a 540 px window: rows close enough that the last one and the hint stay in view.
	box.add_theme_constant_override("separation", 4)
	center.add_child(box)
	var title := Label.new()
	title.text = "Reach2D"
	title.add_theme_font_size_override("font_size", 32)
	title.add_theme_color_override("font_color", Color(0.98, 0.72, 0.25))
	title.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	box.add_child(title)
	var subtitle := Label.new()
	subtitle.text = "Fast, exact 2D inverse kinematics for Godot 4"
	subtitle.add_theme_font_size_override("font_size", 15)
	subtitle.add_theme_color_override("font_color", Color(0.75, 0.8, 0.88))
	subtitle.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	box.add_child(subtitle)
	var gap := Control.new()
	gap.custom_minimum_size = Vector2(0, 4)
	box.add_child(gap)
	for demo: Array in DEMOS:
		var row := HBoxContainer.new()
		row.add_theme_constant_override("separation", 14)
		box.add_child(row)
		var button := Button.new()
		button.text = demo[0]
		button.custom_minimum_size = Vector2(170, 29)
		button.add_theme_font_size_override("font_size", 15)
		var path: String = demo[1]
		button.pressed.connect(func() -> void: get_tree().change_scene_to_file(path))
		row.add_child(button)
		var about := Label.new()
		about.text = demo[2]
		about.add_theme_font_size_override("font_size", 14)
		about.add_theme_color_override("font_color", Color(0.7, 0.75, 0.82))
		about.custom_minimum_size = Vector2(430, 0)
		row.add_child(about)
	var hint := Label.new()
	hint.text = "Mouse or touch drives every demo. Esc or \"Back to menu\" returns here."
	hint.add_theme_font_size_override("font_size", 13)
	hint.add_theme_color_override("font_color", Color(0.5, 0.55, 0.62))
	hint.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	box.add_child(gap.duplicate())
	box.add_child(hint)
