@tool
extends RefCounted
## Converts a Skeleton2D's built-in SkeletonModificationStack2D into Reach2D nodes: each FABRIK, CCDIK, TwoBoneIK
## and LookAt modification becomes a FabrikChain2D, CcdChain2D, TwoBoneIk2D or LookAt2D with the same target, bones,
## angle limits and bend side, and is disabled; a stack left running nothing can then be removed
## ([method remove_emptied_stack]). The bones are read as drawn (as a saved scene holds them), never in the pose a
## stack that ran left on them, and nothing is written to them. Works from scripts without the editor plugin:
##
##     const Convert := preload("res://addons/reach2d/editor/convert.gd")
##     var result := Convert.convert_modifications($Skeleton2D)
##     for line in result["notes"]: print(line)

## Built-in angles live in [0, TAU) once Godot's clamp has mapped them (SkeletonModification2D.clamp_angle).
const SEAM := PI


## Creates a Reach2D node for every enabled FABRIK, CCDIK, TwoBoneIK or LookAt modification of
## [param skeleton]'s stack, as a sibling after the skeleton (its child when the skeleton is the scene root), owned
## by the skeleton's owner so it saves with the scene, and disables each converted modification. With
## [param undo_redo] (an [EditorUndoRedoManager]) it is one undoable action.
##
## Returns [code]{ok, nodes = [created nodes], notes = [what was not carried over, one line each],
## stack_emptied}[/code] ([code]stack_emptied[/code]: the stack now runs nothing, see [method stack_runs_nothing]);
## [code]ok[/code] is [code]false[/code] with a note when there is nothing to convert.
static func convert_modifications(skeleton: Variant, undo_redo: Object = null) -> Dictionary:
	var notes := PackedStringArray()
	if not is_instance_valid(skeleton) or not skeleton is Skeleton2D:
		notes.append("convert: pick the Skeleton2D whose modification stack to convert")
		return {"ok": false, "nodes": [], "notes": notes}
	var stack: SkeletonModificationStack2D = skeleton.get_modification_stack()
	if stack == null or stack.get_modification_count() == 0:
		notes.append("convert: the Skeleton2D has no SkeletonModificationStack2D with modifications")
		return {"ok": false, "nodes": [], "notes": notes}
	var parent: Node = skeleton.get_parent()
	var owner: Node = skeleton.owner
	var is_scene_root: bool = skeleton.is_inside_tree() and skeleton == skeleton.get_tree().edited_scene_root
	if parent == null or is_scene_root:
		parent = skeleton
		owner = skeleton
	var made := []  # [node, modification]
	var added := {}  # IK node -> [parent, child]: a node the conversion adds for it
	# What the new nodes will read once the scene is saved and reopened: the drawn pose, not the one the stack left.
	var drawn := drawn_local_transforms(skeleton)
	for i in stack.get_modification_count():
		var modification := stack.get_modification(i)
		if modification == null:
			continue
		var label := "modification %d (%s)" % [i, modification.get_class()]
		if not modification.enabled:
			notes.append("%s: disabled, left as it is" % label)
			continue
		var node: Node2D = null
		if modification is SkeletonModification2DFABRIK:
			node = _from_fabrik(skeleton, modification, label, notes, added)
		elif modification is SkeletonModification2DCCDIK:
			node = _from_ccdik(skeleton, modification, label, notes)
		elif modification is SkeletonModification2DTwoBoneIK:
			node = _from_two_bone(skeleton, modification, label, notes, drawn)
		elif modification is SkeletonModification2DLookAt:
			node = _from_look_at(skeleton, modification, label, notes)
		else:
			notes.append("%s: no Reach2D equivalent (jiggle, physical bones and stacks stay as they are)" % label)
			continue
		if node != null:
			node.name = "%s_%s" % [skeleton.name, node.get_class()]
			made.append([node, modification])
	if made.is_empty():
		return {"ok": false, "nodes": [], "notes": notes}
	var nodes := []
	if undo_redo != null:
		undo_redo.create_action("Convert %s's modifications to Reach2D nodes" % skeleton.name, UndoRedo.MERGE_DISABLE, skeleton)
	for pair in made:
		var node: Node2D = pair[0]
		nodes.append(node)
		var extra: Array = added.get(node, [])
		if undo_redo != null:
			if not extra.is_empty():
				undo_redo.add_do_method(extra[0], &"add_child", extra[1], true)
				undo_redo.add_do_method(extra[1], &"set_owner", owner)
				undo_redo.add_do_reference(extra[1])
				undo_redo.add_undo_method(extra[0], &"remove_child", extra[1])
			undo_redo.add_do_method(parent, &"add_child", node, true)
			undo_redo.add_do_method(node, &"set_owner", owner)
			undo_redo.add_do_reference(node)
			undo_redo.add_do_property(pair[1], &"enabled", false)
			undo_redo.add_undo_method(parent, &"remove_child", node)
			undo_redo.add_undo_property(pair[1], &"enabled", true)
		else:
			if not extra.is_empty():
				extra[0].add_child(extra[1], true)
				extra[1].owner = owner
			parent.add_child(node, true)
			node.owner = owner
			pair[1].enabled = false
	if undo_redo != null:
		undo_redo.commit_action()
	var emptied := stack_runs_nothing(skeleton)
	if emptied:
		notes.append("convert: %s's SkeletonModificationStack2D now runs nothing, but while it is there the skeleton still sets every bone's transform from a copy each frame; remove it (remove_emptied_stack, or the button in the Skeleton2D's inspector)" % skeleton.name)
	return {"ok": true, "nodes": nodes, "notes": notes, "stack_emptied": emptied}


## [code]true[/code] when [param skeleton] has a SkeletonModificationStack2D that runs no modification: none, all
## disabled (as a conversion leaves them), or the stack itself disabled. Such a stack still changes what the engine
## does: every frame the skeleton sets each bone's transform from a copy it keeps (Skeleton2D.execute_modifications),
## and a modification enabled later runs again.
static func stack_runs_nothing(skeleton: Variant) -> bool:
	if not is_instance_valid(skeleton) or not skeleton is Skeleton2D:
		return false
	var stack: SkeletonModificationStack2D = skeleton.get_modification_stack()
	if stack == null:
		return false
	if not stack.enabled:
		return true
	for i in stack.get_modification_count():
		var modification := stack.get_modification(i)
		if modification != null and modification.enabled:
			return false
	return true


## Removes [param skeleton]'s SkeletonModificationStack2D when it runs nothing ([method stack_runs_nothing]): the
## bones first get their drawn pose back (a stack that ran leaves its last pose on them, and without the stack nothing
## would put the drawn one back), then the stack goes. With [param undo_redo] (an [EditorUndoRedoManager]) it is one
## undoable action; undo brings the stack back (the bones keep their drawn pose, which the stack runs from).
##
## Returns [code]{ok, notes}[/code]; [code]ok[/code] is [code]false[/code] with a note, changing nothing, when there is
## no stack or it still runs a modification.
static func remove_emptied_stack(skeleton: Variant, undo_redo: Object = null) -> Dictionary:
	var notes := PackedStringArray()
	if not is_instance_valid(skeleton) or not skeleton is Skeleton2D:
		notes.append("remove stack: pick the Skeleton2D whose modification stack to remove")
		return {"ok": false, "notes": notes}
	var stack: SkeletonModificationStack2D = skeleton.get_modification_stack()
	if stack == null:
		notes.append("remove stack: %s has no SkeletonModificationStack2D" % skeleton.name)
		return {"ok": false, "notes": notes}
	if not stack_runs_nothing(skeleton):
		var running := []
		for i in stack.get_modification_count():
			var modification := stack.get_modification(i)
			if modification != null and modification.enabled:
				running.append("modification %d (%s)" % [i, modification.get_class()])
		notes.append("remove stack: %s's stack still runs %s; convert or disable them first" % [skeleton.name, ", ".join(running)])
		return {"ok": false, "notes": notes}
	var drawn := drawn_local_transforms(skeleton)
	if undo_redo != null:
		undo_redo.create_action("Remove %s's emptied modification stack" % skeleton.name, UndoRedo.MERGE_DISABLE, skeleton)
		# Undo brings the stack back only: the bones keep their drawn pose, which is also the copy the stack sets them
		# from (writing its last pose back would make that pose the drawn one).
		for bone in drawn:
			undo_redo.add_do_property(bone, &"transform", drawn[bone])
		undo_redo.add_do_method(skeleton, &"set_modification_stack", null)
		undo_redo.add_undo_method(skeleton, &"set_modification_stack", stack)
		undo_redo.add_undo_reference(stack)
		undo_redo.commit_action()
	else:
		for bone in drawn:
			bone.transform = drawn[bone]
		skeleton.set_modification_stack(null)
	return {"ok": true, "notes": notes}


## Each Bone2D under [param skeleton] mapped to its drawn local transform: the one a saved scene holds and a reopened
## one gives back. While a modification stack runs, a Bone2D shows the stack's pose and keeps the drawn transform
## aside (and saves that); the editor's save notifications swap the two, so they are read here by swapping and
## swapping back, changing nothing. Without the editor's code (an export template) it is the current transform.
static func drawn_local_transforms(skeleton: Node) -> Dictionary:
	var bones := skeleton.find_children("*", "Bone2D", true, false)
	var drawn := {}
	for bone in bones:
		bone.notification(Node.NOTIFICATION_EDITOR_PRE_SAVE)
	for bone in bones:
		drawn[bone] = bone.transform
	for bone in bones:
		bone.notification(Node.NOTIFICATION_EDITOR_POST_SAVE)
	return drawn


## [param node]'s global transform with every Bone2D in [param drawn] (from [method drawn_local_transforms]) at its
## drawn local transform, computed without touching a node.
static func drawn_global_transform(node: Node, drawn: Dictionary) -> Transform2D:
	if not node is CanvasItem:
		return Transform2D.IDENTITY
	if not drawn.has(node):
		return node.get_global_transform()
	return drawn_global_transform(node.get_parent(), drawn) * drawn[node]


## The Reach2D limit [min, max] (radians in [-PI, PI], on the bone's local rotation) that allows what Godot's
## clamp_angle allows for ([param min_angle], [param max_angle], [param invert]), or an empty array when no single
## arc in [-PI, PI] does. Godot maps angles and both bounds to [0, TAU) and orders the bounds before clamping, so a
## negative bound changes the allowed arc: [-1, 0.5] allows [0.5, TAU - 1] unless inverted.
static func limit_from_constraint(min_angle: float, max_angle: float, invert: bool) -> Array:
	var lo := fposmod(min_angle, TAU)
	var hi := fposmod(max_angle, TAU)
	if lo > hi:
		var swap := lo
		lo = hi
		hi = swap
	var from := hi if invert else lo
	var to := lo + TAU if invert else hi
	for shift in [0.0, -TAU]:
		if from + shift >= -SEAM - 1e-6 and to + shift <= SEAM + 1e-6:
			return [maxf(from + shift, -PI), minf(to + shift, PI)]
	return []


## The bone a joint names: its Bone2D path (relative to the skeleton), else its bone index.
static func _joint_bone(skeleton: Skeleton2D, path: NodePath, index: int) -> Bone2D:
	if not path.is_empty():
		var node := skeleton.get_node_or_null(path)
		if node is Bone2D:
			return node
	if index >= 0 and index < skeleton.get_bone_count():
		return skeleton.get_bone(index)
	return null


## True when each of [param bones] is the parent of the next: the only chain shape Reach2D nodes drive.
static func _is_chain(bones: Array) -> bool:
	for i in range(1, bones.size()):
		if bones[i] == null or bones[i].get_parent() != bones[i - 1]:
			return false
	return not bones.is_empty() and bones[0] != null


static func _target(skeleton: Skeleton2D, modification: Object, label: String, notes: PackedStringArray) -> Node2D:
	var target := skeleton.get_node_or_null(modification.get_target_node()) as Node2D
	if target == null:
		notes.append("%s: its target does not resolve to a Node2D; set the new node's target by hand" % label)
	return target


## [param added]: node -> [parent, child] for a node the conversion adds beside the new IK node (a turned target).
static func _from_fabrik(skeleton: Skeleton2D, modification: SkeletonModification2DFABRIK, label: String, notes: PackedStringArray, added: Dictionary) -> Node2D:
	var bones := []
	for j in modification.get_fabrik_data_chain_length():
		bones.append(_joint_bone(skeleton, modification.get_fabrik_joint_bone2d_node(j), modification.get_fabrik_joint_bone_index(j)))
		if modification.get_fabrik_joint_magnet_position(j) != Vector2.ZERO:
			notes.append("%s: joint %d's magnet_position has no Reach2D equivalent (dropped; a pole node bends the chain instead)" % [label, j])
		# Only the last joint's use_target_rotation does anything in the built-in: it becomes match_target_rotation.
		var last := j == modification.get_fabrik_data_chain_length() - 1
		if modification.get_fabrik_joint_use_target_rotation(j) and not last:
			notes.append("%s: joint %d's use_target_rotation does nothing on a joint before the tip (dropped)" % [label, j])
	if not _is_chain(bones):
		notes.append("%s: its joints are not one parent-to-child Bone2D chain; not converted" % label)
		return null
	var node: Node2D = ClassDB.instantiate("FabrikChain2D")
	node.target = _target(skeleton, modification, label, notes)
	node.root_bone = bones[0]
	node.tip_bone = bones[-1]
	node.match_target_rotation = modification.get_fabrik_joint_use_target_rotation(bones.size() - 1)
	# The built-in turns the tip bone's drawn direction (its x axis turned by bone_angle) to the target's rotation;
	# match_target_rotation turns its x axis. A child of the target turned back by bone_angle carries that over.
	var bone_angle: float = bones[-1].get_bone_angle()
	if node.match_target_rotation and node.target != null and absf(bone_angle) > 1e-6:
		var turned := Node2D.new()
		turned.name = "%sRotation" % bones[-1].name
		turned.rotation = -bone_angle
		added[node] = [node.target, turned]
		node.target = turned
		notes.append("%s: use_target_rotation turns the tip's drawn direction (bone_angle %.3f rad) to the target's rotation; the new node reaches for a child of the target, %s, turned by -bone_angle, so its tip ends the same way" % [label, bone_angle, turned.name])
	return node


static func _from_ccdik(skeleton: Skeleton2D, modification: SkeletonModification2DCCDIK, label: String, notes: PackedStringArray) -> Node2D:
	var bones := []
	for j in modification.get_ccdik_data_chain_length():
		bones.append(_joint_bone(skeleton, modification.get_ccdik_joint_bone2d_node(j), modification.get_ccdik_joint_bone_index(j)))
	if not _is_chain(bones):
		notes.append("%s: its joints are not one parent-to-child Bone2D chain; not converted" % label)
		return null
	var node: Node2D = ClassDB.instantiate("CcdChain2D")
	# Both reach the same target, but not through the same poses of a chain of three or more bones.
	if bones.size() > 2:
		notes.append("%s: the built-in turns the joints from the root to the tip, one sweep per frame; CcdChain2D turns them from the tip to the root until the end is within tolerance. The end reaches the same targets, but the middle joints can settle elsewhere (up to 80 px apart on a three-bone arm); add angle limits or a pole where the built-in's shape matters" % label)
	node.target = _target(skeleton, modification, label, notes)
	node.root_bone = bones[0]
	node.tip_bone = bones[-1]
	# The built-in's end effector is its tip node; Reach2D's is the end of the tip bone (length along bone_angle).
	var tip := skeleton.get_node_or_null(modification.get_tip_node()) as Node2D
	var end: Vector2 = bones[-1].global_transform * (Vector2.from_angle(bones[-1].get_bone_angle()) * bones[-1].get_length())
	if tip == null or tip.global_position.distance_to(end) > 0.5:
		notes.append("%s: its tip node is not at the end of the last joint's bone (%.1f px away); Reach2D reaches with the bone's end" % [label, INF if tip == null else tip.global_position.distance_to(end)])
	for j in bones.size():
		if modification.get_ccdik_joint_rotate_from_joint(j):
			notes.append("%s: joint %d's rotate_from_joint has no Reach2D equivalent (Reach2D rotates toward the target from the tip)" % [label, j])
		if not modification.get_ccdik_joint_enable_constraint(j):
			continue
		var local = modification.get("joint_data/%d/constraint_in_localspace" % j)
		_carry_limit(node, j, modification.get_ccdik_joint_constraint_angle_min(j), modification.get_ccdik_joint_constraint_angle_max(j),
			modification.get_ccdik_joint_constraint_angle_invert(j), local == null or local, "%s: joint %d" % [label, j], notes)
	return node


static func _from_two_bone(skeleton: Skeleton2D, modification: SkeletonModification2DTwoBoneIK, label: String, notes: PackedStringArray, drawn: Dictionary) -> Node2D:
	var first := _joint_bone(skeleton, modification.get_joint_one_bone2d_node(), modification.get_joint_one_bone_idx())
	var second := _joint_bone(skeleton, modification.get_joint_two_bone2d_node(), modification.get_joint_two_bone_idx())
	if not _is_chain([first, second]):
		notes.append("%s: joint two is not joint one's child Bone2D; not converted" % label)
		return null
	var node: Node2D = ClassDB.instantiate("TwoBoneIk2D")
	node.target = _target(skeleton, modification, label, notes)
	node.root_bone = first
	node.tip_bone = second
	# The built-in bends to a fixed side (its flag and the bones' scale signs decide it); TwoBoneIk2D bends the way
	# the limb is drawn, flip_bend the other way. Keep the built-in's side for this rig as drawn: the pose the new node
	# reads once the scene is saved and reopened, not the one the built-in left on the bones if it ran.
	var builtin_side := builtin_two_bone_side(first, second, modification.get_flip_bend_direction(), drawn)
	node.flip_bend = builtin_side != 0 and builtin_side != reach2d_two_bone_side(first, second, drawn)
	if modification.get_target_minimum_distance() > 0.0 or modification.get_target_maximum_distance() > 0.0:
		notes.append("%s: target_minimum_distance / target_maximum_distance have no Reach2D equivalent (dropped)" % label)
	return node


static func _from_look_at(skeleton: Skeleton2D, modification: SkeletonModification2DLookAt, label: String, notes: PackedStringArray) -> Node2D:
	var bone := _joint_bone(skeleton, modification.get_bone2d_node(), modification.get_bone_index())
	if bone == null:
		notes.append("%s: its bone does not resolve; not converted" % label)
		return null
	var node: Node2D = ClassDB.instantiate("LookAt2D")
	node.target = _target(skeleton, modification, label, notes)
	node.bone = bone
	# The built-in turns the bone's direction additional_rotation past the target (radians from the getter; the
	# inspector shows degrees); LookAt2D's angle_offset is the bone direction that faces the target: the opposite.
	var offset := wrapf(-modification.get_additional_rotation(), -PI, PI)
	if is_finite(offset):
		node.angle_offset = offset
	if modification.get_enable_constraint():
		var local = modification.get("constraint_in_localspace")
		_carry_limit(node, 0, modification.get_constraint_angle_min(), modification.get_constraint_angle_max(),
			modification.get_constraint_angle_invert(), local == null or local, label, notes)
	return node


## The side the built-in SkeletonModification2DTwoBoneIK bends [param first]/[param second] to, as the sign of
## cross(target - root, knee - root) on global points (+1 or -1; 0 when the bones cannot tell), for the bones at their
## local transforms in [param drawn] (from [method drawn_local_transforms]; a bone not in it at its current one). The
## built-in's side does not depend on the target, so it is measured on one reachable probe target by following the
## built-in's own steps (SkeletonModification2DTwoBoneIK::_execute: the first bone's global rotation set, which keeps
## its global scale and drops its skew, so negative scales count exactly as the built-in counts them) on transforms
## only: no node is written.
static func builtin_two_bone_side(first: Bone2D, second: Bone2D, flip: bool, drawn := {}) -> int:
	var first_global := drawn_global_transform(first, drawn)
	var second_local: Transform2D = drawn.get(second, second.transform)
	var scale_one := first_global.get_scale()
	var scale_two := (first_global * second_local).get_scale()
	var upper := first.get_length() * minf(absf(scale_one.x), absf(scale_one.y))
	var lower := second.get_length() * minf(absf(scale_two.x), absf(scale_two.y))
	if not (upper > 0.0 and lower > 0.0 and is_finite(upper + lower)):
		return 0
	var root := first_global.origin
	var distance := maxf(upper, lower)  # strictly between |upper - lower| and upper + lower: a bent limb
	var probe := root + Vector2.from_angle(0.7) * distance
	var angle_0 := acos((distance * distance + upper * upper - lower * lower) / (2.0 * distance * upper))
	if flip:
		angle_0 = -angle_0
	var aim := (probe - root).angle()
	var turn := aim - angle_0 - first.get_bone_angle() if signf(scale_one.x) == signf(scale_one.y) else aim + angle_0 + first.get_bone_angle()
	# Node2D.set_global_rotation: the global transform turned to `turn`, its scale kept (the sign of the y axis
	# too), its skew dropped. The knee is the second bone's origin in it; the second bone's own turn does not move it.
	var knee := Transform2D(turn, scale_one, 0.0, root) * second_local.origin
	return int(signf((probe - root).cross(knee - root)))


## The side a TwoBoneIk2D without flip_bend or pole bends [param first]/[param second] to, in the same measure as
## [method builtin_two_bone_side], for the bones at their local transforms in [param drawn]: the side the limb is
## drawn bent to (its knee against the line from the root to the end of the lower bone), or for a straight limb
## cross > 0 in the root's parent frame.
static func reach2d_two_bone_side(first: Bone2D, second: Bone2D, drawn := {}) -> int:
	var first_global := drawn_global_transform(first, drawn)
	var second_global: Transform2D = first_global * drawn.get(second, second.transform)
	var root := first_global.origin
	var knee := second_global.origin
	var end := second_global * (Vector2.from_angle(second.get_bone_angle()) * second.get_length())
	var to_end := end - root
	var to_knee := knee - root
	var sine := to_end.normalized().cross(to_knee.normalized())
	if absf(sine) > 1e-4:
		return int(signf(sine))
	return 1 if drawn_global_transform(first.get_parent(), drawn).determinant() >= 0.0 else -1


static func _carry_limit(node: Node2D, index: int, min_angle: float, max_angle: float, invert: bool, local: bool, label: String, notes: PackedStringArray) -> void:
	if not local:
		notes.append("%s: a global-space constraint cannot be carried over (Reach2D limits are on the local rotation); dropped" % label)
		return
	var limit := limit_from_constraint(min_angle, max_angle, invert)
	if limit.is_empty():
		notes.append("%s: the constraint [%.3f, %.3f]%s allows an arc across PI, which Reach2D limits (within [-PI, PI]) cannot hold; dropped (did you mean constraint_angle_invert?)" % [label, min_angle, max_angle, " inverted" if invert else ""])
		return
	node.set_angle_limits(index, limit[0], limit[1])
