extends RefCounted
## Godot's built-in 2D IK for the benchmarks: one SkeletonModification2D (FABRIK, CCDIK or TwoBoneIK) over a rig's
## bones, in a stack of its own on the rig's skeleton. Shared by bench_game.gd and bench_nodes.gd.


## Gives `rig` ({skeleton, bones, target, tip}) a modification stack holding one built-in solver of `kind`
## ("fabrik", "ccd" or "two_bone") over its bones toward its target.
static func add(kind: String, rig: Dictionary) -> void:
	var skeleton: Skeleton2D = rig["skeleton"]
	var bones: Array = rig["bones"]
	var modification: SkeletonModification2D
	match kind:
		"fabrik":
			var m := SkeletonModification2DFABRIK.new()
			m.fabrik_data_chain_length = bones.size()
			for i in bones.size():
				m.set_fabrik_joint_bone2d_node(i, skeleton.get_path_to(bones[i]))
				m.set_fabrik_joint_bone_index(i, bones[i].get_index_in_skeleton())
			m.target_nodepath = skeleton.get_path_to(rig["target"])
			modification = m
		"ccd":
			var m := SkeletonModification2DCCDIK.new()
			m.ccdik_data_chain_length = bones.size()
			for i in bones.size():
				m.set_ccdik_joint_bone2d_node(i, skeleton.get_path_to(bones[i]))
				m.set_ccdik_joint_bone_index(i, bones[i].get_index_in_skeleton())
			m.target_nodepath = skeleton.get_path_to(rig["target"])
			m.tip_nodepath = skeleton.get_path_to(rig["tip"])
			modification = m
		"two_bone":
			var m := SkeletonModification2DTwoBoneIK.new()
			m.set_joint_one_bone2d_node(skeleton.get_path_to(bones[0]))
			m.set_joint_one_bone_idx(bones[0].get_index_in_skeleton())
			m.set_joint_two_bone2d_node(skeleton.get_path_to(bones[1]))
			m.set_joint_two_bone_idx(bones[1].get_index_in_skeleton())
			m.target_nodepath = skeleton.get_path_to(rig["target"])
			modification = m
	var stack := SkeletonModificationStack2D.new()
	stack.add_modification(modification)
	skeleton.set_modification_stack(stack)
	stack.enabled = true


## A Node2D named "tip" at the end of `bone` along its bone angle, a child of it: the node the built-in CCDIK's
## tip_nodepath names (the rigs' `tip`).
static func add_tip(bone: Bone2D) -> Node2D:
	var tip := Node2D.new()
	tip.name = "tip"
	tip.position = Vector2.from_angle(bone.get_bone_angle()) * bone.get_length()
	bone.add_child(tip)
	return tip
