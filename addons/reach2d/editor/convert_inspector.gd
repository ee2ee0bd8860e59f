@tool
extends EditorInspectorPlugin
## The inspector section of a Skeleton2D whose SkeletonModificationStack2D holds modifications: one button that
## converts them into Reach2D nodes (editor/convert.gd does the work) and prints what could not be carried over.

const Convert := preload("res://addons/reach2d/editor/convert.gd")

var undo_redo: EditorUndoRedoManager


func _can_handle(object: Object) -> bool:
	if not object is Skeleton2D:
		return false
	var stack: SkeletonModificationStack2D = object.get_modification_stack()
	return stack != null and stack.get_modification_count() > 0


func _parse_begin(object: Object) -> void:
	var skeleton := object as Skeleton2D
	var button := Button.new()
	button.name = "Reach2DConvert"
	button.text = "Convert Modifications to Reach2D Nodes"
	button.tooltip_text = "Create a Reach2D node for each FABRIK, CCDIK, TwoBoneIK and LookAt modification and disable it (undoable). What cannot be carried over is printed to the Output panel."
	button.pressed.connect(func(): convert_skeleton(skeleton))
	add_custom_control(button)


func convert_skeleton(skeleton: Skeleton2D) -> Dictionary:
	var result := Convert.convert_modifications(skeleton, undo_redo)
	for note in result["notes"]:
		push_warning("Reach2D: " + note)
	print("Reach2D: converted %d modification(s) of %s into %s." % [result["nodes"].size(), skeleton.name, ", ".join(result["nodes"].map(func(n): return n.name))])
	return result
