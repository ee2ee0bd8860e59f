extends Node2D
## Shared by every demo scene: pointer tracking (mouse and touch), the scripted mode used by headless runs and
## screenshots, the help panel, a column of controls and the way back to the menu.
##
## A scene script extends this file and overrides `_demo_ready()`, `_demo_process(delta)`, `auto_aim(t)` (where
## the pointer goes when nobody moves it, and always in scripted mode), and `get_ik_nodes()` (the IK nodes whose
## error the demo runner checks this frame).

const PANEL_BG := Color(0.05, 0.06, 0.09, 0.82)
const ACCENT := Color(0.98, 0.72, 0.25)

## Set before the scene enters the tree: targets follow `auto_aim()` instead of the pointer, and the scene never
## waits for input. `demo_runner.gd` sets it for headless checks and screenshots.
var scripted := false
## Seconds since the scene started (advances with the frames' delta).
var time := 0.0
## Where the mouse or the last touch is, in this node's coordinates.
var pointer := Vector2(480, 270)
## True once the user moved the mouse or touched the screen: until then the scene runs its own path.
var pointer_used := false

## Drawn above the rigs (z_index 10): `_draw_overlay(canvas)` draws limits, targets and markers there.
var overlay: Node2D

var _controls: VBoxContainer
var _status: Label


func _ready() -> void:
	overlay = Node2D.new()
	overlay.name = "Overlay"
	overlay.z_index = 10
	add_child(overlay)
	overlay.draw.connect(func() -> void: _draw_overlay(overlay))
	var layer := CanvasLayer.new()
	layer.name = "UI"
	add_child(layer)
	var help_panel := _panel(Vector2(12, 12))
	layer.add_child(help_panel)
	var box := VBoxContainer.new()
	help_panel.add_child(box)
	var title_label := Label.new()
	title_label.text = demo_title()
	title_label.add_theme_font_size_override("font_size", 20)
	title_label.add_theme_color_override("font_color", ACCENT)
	box.add_child(title_label)
	var help_label := Label.new()
	help_label.text = demo_help()
	help_label.add_theme_font_size_override("font_size", 13)
	help_label.custom_minimum_size = Vector2(330, 0)
	help_label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	box.add_child(help_label)
	_status = Label.new()
	_status.add_theme_font_size_override("font_size", 13)
	_status.add_theme_color_override("font_color", Color(0.6, 0.9, 0.7))
	box.add_child(_status)

	var right := _panel(Vector2.ZERO)
	right.anchor_left = 1.0
	right.anchor_right = 1.0
	right.offset_left = -212
	right.offset_right = -12
	right.offset_top = 12
	right.grow_horizontal = Control.GROW_DIRECTION_BEGIN
	layer.add_child(right)
	_controls = VBoxContainer.new()
	_controls.add_theme_constant_override("separation", 6)
	right.add_child(_controls)
	var back := Button.new()
	back.text = "< Back to menu"
	back.pressed.connect(func() -> void: get_tree().change_scene_to_file("res://main.tscn"))
	_controls.add_child(back)
	_demo_ready()


func _panel(at: Vector2) -> PanelContainer:
	var panel := PanelContainer.new()
	panel.position = at
	var style := StyleBoxFlat.new()
	style.bg_color = PANEL_BG
	style.set_corner_radius_all(6)
	style.set_content_margin_all(10)
	panel.add_theme_stylebox_override("panel", style)
	return panel


func _process(delta: float) -> void:
	# Scripted runs step a fixed 1/60 s per frame, so a headless check or a screenshot sees the same poses on
	# every machine.
	var step := 1.0 / 60.0 if scripted else delta
	time += step
	_demo_process(step)
	queue_redraw()
	overlay.queue_redraw()


func _unhandled_input(event: InputEvent) -> void:
	if event is InputEventMouseMotion or event is InputEventScreenDrag or event is InputEventScreenTouch:
		pointer = get_canvas_transform().affine_inverse() * (event as InputEventFromWindow).position
		pointer_used = true
	if event is InputEventKey and event.pressed and (event as InputEventKey).keycode == KEY_ESCAPE:
		get_tree().change_scene_to_file("res://main.tscn")


## Where the targets should go: the pointer, or the scene's own path while nobody uses the pointer.
func aim() -> Vector2:
	if pointer_used and not scripted:
		return pointer
	return auto_aim(time)


## Adds a check box to the control column.
func add_toggle(text: String, on: bool, changed: Callable) -> CheckBox:
	var box := CheckBox.new()
	box.text = text
	box.button_pressed = on
	box.toggled.connect(changed)
	_controls.add_child(box)
	return box


## Adds a labelled slider to the control column; the label shows the value.
func add_slider(text: String, low: float, high: float, step: float, value: float, changed: Callable) -> HSlider:
	var label := Label.new()
	label.add_theme_font_size_override("font_size", 13)
	_controls.add_child(label)
	var slider := HSlider.new()
	slider.min_value = low
	slider.max_value = high
	slider.step = step
	slider.value = value
	slider.custom_minimum_size = Vector2(180, 20)
	var show := func(v: float) -> void: label.text = "%s: %s" % [text, str(snappedf(v, step))]
	show.call(value)
	slider.value_changed.connect(show)
	slider.value_changed.connect(changed)
	_controls.add_child(slider)
	return slider


## Shows a line of live numbers under the help text.
## A round-jointed Line2D child, `width` px at its start tapering to `tip` times that at its end: a tentacle's,
## snake's or whip's body drawn through its bones' joints.
func add_body_line(width: float, color: Color, tip: float) -> Line2D:
	var line := Line2D.new()
	line.width = width
	line.default_color = color
	var taper := Curve.new()
	taper.add_point(Vector2(0, 1))
	taper.add_point(Vector2(1, tip))
	line.width_curve = taper
	line.joint_mode = Line2D.LINE_JOINT_ROUND
	line.begin_cap_mode = Line2D.LINE_CAP_ROUND
	line.end_cap_mode = Line2D.LINE_CAP_ROUND
	line.antialiased = true
	add_child(line)
	return line


func set_status(text: String) -> void:
	_status.text = text


## Draws a filled circle with an outline on `canvas`, for targets and joints.
static func draw_marker(canvas: CanvasItem, at: Vector2, radius: float, color: Color) -> void:
	canvas.draw_circle(at, radius, Color(color, 0.25))
	canvas.draw_arc(at, radius, 0.0, TAU, 24, color, 2.0, true)


# --- Overridden by each demo -------------------------------------------------------------------------------


func demo_title() -> String:
	return "Demo"


func demo_help() -> String:
	return ""


func _demo_ready() -> void:
	pass


func _demo_process(_delta: float) -> void:
	pass


## Draws above the rigs; `canvas` is the overlay node (use its draw_* methods).
func _draw_overlay(_canvas: Node2D) -> void:
	pass


func auto_aim(_t: float) -> Vector2:
	return Vector2(480, 270)


## The IK nodes the demo runner checks this frame: each must have reached its target (within its tolerance,
## plus how far the target lies beyond the chain's reach).
func get_ik_nodes() -> Array:
	return []


## Extra numbers for the demo runner's line.
func summary() -> String:
	return ""
