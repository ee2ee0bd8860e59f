@tool
extends EditorInspectorPlugin
## The inspector section of a Reach2D node that bakes it, or every Reach2D node of its character ("Whole character":
## those under the chosen AnimationPlayer's root node, in the game's order), into an animation of an AnimationPlayer
## of the edited scene (editor/bake.gd does the work), into a copy or, after a confirmation, into the animation itself.

const Bake := preload("res://addons/reach2d/editor/bake.gd")

var undo_redo: EditorUndoRedoManager


func _can_handle(object: Object) -> bool:
	return object is Node2D and Bake.CLASSES.has(object.get_class())


func _parse_begin(object: Object) -> void:
	add_custom_control(make_panel(object as Node2D))


## The section for [param ik]: a choice of "player: animation", the sampling step, "into a copy" and the button.
func make_panel(ik: Node2D) -> Control:
	var panel := VBoxContainer.new()
	panel.name = "Reach2DBake"
	var title := Label.new()
	title.text = "Bake IK to Animation"
	title.tooltip_text = "Sample an animation with this node (or the whole character) running as in the game and key what it writes."
	panel.add_child(title)
	var choice := OptionButton.new()
	choice.name = "Animation"
	var entries := []  # [player, animation name] per item
	var scene := EditorInterface.get_edited_scene_root()
	if scene != null:
		var players := scene.find_children("*", "AnimationPlayer", true, false)
		if scene is AnimationPlayer:
			players.push_front(scene)
		for player: AnimationPlayer in players:
			for animation_name in player.get_animation_list():
				if animation_name == &"RESET":
					continue
				choice.add_item("%s: %s" % [player.name, animation_name])
				entries.append([player, animation_name])
	panel.add_child(choice)
	var row := HBoxContainer.new()
	var step_label := Label.new()
	step_label.text = "Step"
	row.add_child(step_label)
	var step := SpinBox.new()
	step.name = "Step"
	step.min_value = 0.0
	step.max_value = 1.0
	step.step = 0.001
	step.suffix = "s"
	step.tooltip_text = "Seconds between keys; 0 uses the animation's own step (its snap / frame rate)."
	step.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	row.add_child(step)
	var copy := CheckBox.new()
	copy.name = "IntoCopy"
	copy.text = "Into a copy"
	copy.button_pressed = true
	copy.tooltip_text = "Bake into a new animation '<name>_ik' and leave the original untouched."
	row.add_child(copy)
	panel.add_child(row)
	var whole := CheckBox.new()
	whole.name = "WholeCharacter"
	whole.text = "Whole character"
	# A grounder's leg bakes only with its grounder: offer the character bake at once.
	whole.button_pressed = Bake.grounder_of(ik) != null
	whole.tooltip_text = "Bake every Reach2D node under the AnimationPlayer's root node together, in the order the game runs them (grounders, the IK nodes and rigs, springs), and key everything they write."
	panel.add_child(whole)
	var button := Button.new()
	button.name = "BakeButton"
	button.text = "Bake"
	button.disabled = entries.is_empty()
	button.tooltip_text = "No AnimationPlayer with animations in this scene." if entries.is_empty() else "Bake the chosen animation."
	button.pressed.connect(func():
		if choice.selected < 0:
			return
		var player: AnimationPlayer = entries[choice.selected][0]
		var animation_name: StringName = entries[choice.selected][1]
		var what: Node = player.get_node_or_null(player.root_node) if whole.button_pressed else ik
		if copy.button_pressed:
			bake(what, player, animation_name, step.value, free_name(player, animation_name))
		else:
			confirm_in_place(panel, what, player, animation_name, step.value))
	panel.add_child(button)
	return panel


## Bakes [param what] (a Reach2D node alone, or any other node: every Reach2D node under it) through the editor's
## undo history and reports the result in the output panel.
func bake(what: Node, player: AnimationPlayer, animation_name: StringName, step: float, into: StringName) -> Dictionary:
	var result := Bake.bake_to_animation(what, player, animation_name, step, into, undo_redo) if Bake.CLASSES.has(what.get_class()) \
		else Bake.bake_character(what, player, animation_name, step, into, undo_redo)
	if result["ok"]:
		print("Reach2D: baked %s into '%s': %d keys on each of %d tracks (%d bones)." % [", ".join(result["nodes"]), result["animation"], result["keys"], result["tracks"], result["bones"]])
	return result


## Baking into the animation itself replaces keys: ask first (the bake can still be undone).
func confirm_in_place(owner: Control, what: Node, player: AnimationPlayer, animation_name: StringName, step: float) -> void:
	var dialog := ConfirmationDialog.new()
	dialog.name = "ConfirmBake"
	dialog.dialog_text = "Replace the keys of what %s writes in '%s' with the baked pose?\n(Edit > Undo restores them.)" % [what.name, animation_name]
	dialog.confirmed.connect(func(): bake(what, player, animation_name, step, &""))
	dialog.visibility_changed.connect(func():
		if not dialog.visible:
			dialog.queue_free())
	owner.add_child(dialog)
	dialog.popup_centered()


## "<name>_ik", or "<name>_ik2", ... : a name not yet used in the animation's library.
static func free_name(player: AnimationPlayer, animation_name: StringName) -> StringName:
	var library := player.get_animation_library(player.find_animation_library(player.get_animation(animation_name)))
	var base := String(animation_name).get_slice("/", String(animation_name).get_slice_count("/") - 1) + "_ik"
	var candidate := base
	var n := 2
	while library.has_animation(candidate):
		candidate = "%s%d" % [base, n]
		n += 1
	return StringName(candidate)
