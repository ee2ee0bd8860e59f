extends "res://lib/test_case.gd"
## Diagnostics from the start: the setup warning says what is wrong as soon as the node enters the tree or a property
## changes (not only after a solve attempt), and a collapsed (zero-scale) skeleton or bone is reported once while
## the bones keep their last good pose.


func test_a_manual_node_that_never_solved_says_what_is_wrong() -> void:
	for klass in Nodes.ALL:
		var skeleton := make_chain([40.0, 30.0, 20.0])
		var ik: Node2D = ClassDB.instantiate(klass)
		ik.update_mode = 2
		add_child(ik)
		await get_tree().process_frame
		var target := make_target(Vector2(430, 340))
		if Nodes.has_target(klass):
			expect("target" in ik.get_setup_warning(), "%s without a target, never solved: the warning says so (%s)" % [klass, ik.get_setup_warning()])
			ik.target = target
		var bone_word := "bone"
		expect(bone_word in ik.get_setup_warning(), "%s with a target but no bones: the warning asks for the bones (%s)" % [klass, ik.get_setup_warning()])
		Nodes.attach(ik, bones_of(skeleton), target, 0, Nodes.tip_index(klass, 3))
		expect(ik.get_setup_warning() == "", "%s fully set up: no warning before any solve (%s)" % [klass, ik.get_setup_warning()])
		expect(ik.last_error == -1.0, "%s: still never solved" % klass)
		for node in [ik, skeleton, target]:
			node.free()


func test_zero_scale_is_reported_once_and_the_pose_kept() -> void:
	for klass in Nodes.ALL:
		for where in ["skeleton", "bone"]:
			for s in [Vector2.ZERO, Vector2(0, 1), Vector2(1, 0)]:
				var skeleton := make_chain([40.0, 30.0, 20.0], [0.3, -0.4, 0.2])
				var bones := bones_of(skeleton)
				var target := make_target(Vector2(440, 350))
				var ik := make_ik(klass, skeleton, target, 0, Nodes.tip_index(klass, 3), 0)
				await wait_frames(3)
				var good := rotations_of(bones)
				error_log.take()
				if where == "skeleton":
					skeleton.scale = s
				else:
					bones[0].scale = s
				for i in 10:
					target.position += Vector2(2, -1)
					await get_tree().process_frame
				var label := "%s, %s scale %s" % [klass, where, s]
				var zero := Array(error_log.messages).filter(func(m): return "zero scale" in m)
				expect(zero.size() == 1, "%s: reported once in 10 frames (got %d: %s)" % [label, zero.size(), error_log.messages])
				expect(rotations_of(bones) == good, "%s: the last good pose is kept" % label)
				expect("zero scale" in ik.get_setup_warning(), "%s: the warning says why (%s)" % [label, ik.get_setup_warning()])
				# Back to a normal scale: it solves again.
				if where == "skeleton":
					skeleton.scale = Vector2.ONE
				else:
					bones[0].scale = Vector2.ONE
				await get_tree().process_frame
				await get_tree().process_frame
				expect(ik.get_setup_warning() == "", "%s: the warning clears once the scale is back" % label)
				for node in [ik, target, skeleton]:
					node.free()


## Each class's messages name only its own properties: a TwoBoneIk2D without a target is not told about LookAt2D,
## a LookAt2D without a bone is told to set `bone`, a chain without bones to set `root_bone` and `tip_bone`.
func test_messages_speak_of_the_node_s_own_properties() -> void:
	for klass in Nodes.ALL:
		var ik: Node2D = ClassDB.instantiate(klass)
		add_child(ik)
		var warning: String = ik.get_setup_warning()
		var own_class_only: bool = klass == "LookAt2D" or not "LookAt2D" in warning
		expect(own_class_only, "%s: its warning names no other class (%s)" % [klass, warning])
		if Nodes.has_target(klass):
			expect("target" in warning, "%s without a target says so (%s)" % [klass, warning])
		var target := make_target(Vector2.ZERO)
		if Nodes.has_target(klass):
			ik.target = target
		warning = ik.get_setup_warning()
		var wanted := ["bone"] if Nodes.single_bone(klass) else ["root_bone"]
		for word in wanted:
			expect(word in warning, "%s without bones says to set %s (%s)" % [klass, word, warning])
		expect(klass == "LookAt2D" or not "LookAt2D" in warning, "%s: no other class named (%s)" % [klass, warning])
		ik.free()
		target.free()
