@tool
extends EditorInspectorPlugin
## The inspector section of a Skeleton2D with a SkeletonModificationStack2D: a button that converts its modifications
## into Reach2D nodes (editor/convert.gd does the work) and prints what could not be carried over, then offers to
## remove the stack once it runs nothing; a stack that already runs nothing gets a button that removes it. Both go
## through the editor's undo history.

const Convert := preload("res://addons/reach2d/editor/convert.gd")

var undo_redo: EditorUndoRedoManager


func _can_handle(object: Object) -> bool:
	return object is Skeleton2D and object.get_modification_stack() != null


func _parse_begin(object: Object) -> void:
	var skeleton := object as Skeleton2D
	if skeleton.get_modification_stack().get_modification_count() > 0:
		var button := Button.new()
		button.name = "Reach2DConvert"
		button.text = "Convert Modifications to Reach2D Nodes"
		button.tooltip_text = "Create a Reach2D node for each FABRIK, CCDIK, TwoBoneIK and LookAt modification and disable it (undoable). What cannot be carried over is printed to the Output panel."
		button.pressed.connect(func(): convert_skeleton(skeleton))
		add_custom_control(button)
	if Convert.stack_runs_nothing(skeleton):
		var remove := Button.new()
		remove.name = "Reach2DRemoveStackButton"
		remove.text = "Remove Emptied Modification Stack"
		remove.tooltip_text = "The stack runs no modification, but while it is there the skeleton sets every bone's transform from a copy each frame. Remove it, with the bones' drawn pose put back (undoable)."
		remove.pressed.connect(func(): remove_stack(skeleton))
		add_custom_control(remove)


func convert_skeleton(skeleton: Skeleton2D) -> Dictionary:
	var result := Convert.convert_modifications(skeleton, undo_redo)
	for note in result["notes"]:
		push_warning("Reach2D: " + note)
	print("Reach2D: converted %d modification(s) of %s into %s." % [result["nodes"].size(), skeleton.name, ", ".join(result["nodes"].map(func(n): return n.name))])
	if result.get("stack_emptied", false):
		offer_stack_removal(skeleton)
	return result


## Asks whether to remove [param skeleton]'s stack, which runs nothing any more (after a conversion). Returns the
## dialog (it frees itself when closed).
func offer_stack_removal(skeleton: Skeleton2D) -> ConfirmationDialog:
	var dialog := ConfirmationDialog.new()
	dialog.name = "Reach2DRemoveStack"
	dialog.title = "Remove the emptied modification stack?"
	dialog.dialog_text = "%s's SkeletonModificationStack2D runs no modification now, but while it is there the skeleton sets every bone's transform from a copy each frame, and a modification enabled later runs again.\nRemove it? The bones get their drawn pose back. (Edit > Undo brings the stack back.)" % skeleton.name
	dialog.ok_button_text = "Remove"
	dialog.confirmed.connect(func(): remove_stack(skeleton))
	dialog.visibility_changed.connect(func():
		if not dialog.visible:
			dialog.queue_free())
	EditorInterface.get_base_control().add_child(dialog)
	dialog.popup_centered()
	return dialog


## Removes [param skeleton]'s emptied stack through the editor's undo history; a refusal is printed.
func remove_stack(skeleton: Skeleton2D) -> Dictionary:
	var result := Convert.remove_emptied_stack(skeleton, undo_redo)
	for note in result["notes"]:
		push_warning("Reach2D: " + note)
	if result["ok"]:
		print("Reach2D: removed %s's emptied modification stack; the bones have their drawn pose." % skeleton.name)
	return result
