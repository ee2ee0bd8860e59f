extends "res://lib/test_case.gd"
## CopyTransform2D's promises under bad input and around what it wrote (issue 32): each problem one message, nothing
## written and no NaN while it lasts; only the named properties written; what it wrote put back when disabled, when a
## channel's amount goes to 0 and when it leaves the tree, but never over a value someone else set since; no heap
## allocation per frame in any space.

const BROKEN_FRAMES := 10


## A with_followers character in process mode; the case's copy is the sword's (it follows the hand, Fore).
func make_case() -> Dictionary:
	var c := Characters.with_followers(self, Vector2(400, 300), false)
	c["copy"] = c["copies"]["Sword"]
	return c


## The sword's local rotation, position and scale.
static func values_of(bone: Bone2D) -> Array:
	return [bone.rotation, bone.position, bone.scale]


## Each way to break a copy: [name, what the message says, a callable that breaks the case].
func breakers() -> Array:
	return [
		["no source", "No source", func(c): c["copy"].source = null],
		["source freed", "source was freed", func(c): c["bones"]["fore"].get_node("Hand").free()],
		["source outside the tree", "not inside the scene tree", func(c):
			var hand: Node2D = c["bones"]["fore"].get_node("Hand")
			hand.get_parent().remove_child(hand)
			c["orphan"] = hand],
		["source is the bone", "the same node", func(c): c["copy"].source = c["bones"]["sword"]],
		["source below the bone", "below `bone`", func(c):
			var below := Node2D.new()
			c["bones"]["sword"].add_child(below)
			c["copy"].source = below],
		["source moved below the bone", "below `bone`", func(c): c["bones"]["fore"].get_node("Hand").reparent(c["bones"]["sword"])],
		["rest space, a Node2D source", "needs a Bone2D source", func(c): c["copy"].space = 2],
		["source at zero scale", "source has a zero scale", func(c): c["bones"]["fore"].get_node("Hand").scale = Vector2(0, 1)],
		["source not finite", "NaN or infinite", func(c): c["bones"]["fore"].get_node("Hand").position = Vector2(NAN, 0)],
		["bone at zero scale", "zero scale", func(c): c["bones"]["sword"].scale = Vector2(1, 0)],
		["bone's parent at zero scale", "zero scale", func(c): c["bones"]["torso"].scale = Vector2(0, 0)],
		["rest at zero scale", "zero scale", func(c):
			c["copy"].source = c["bones"]["fore"]
			c["copy"].space = 2
			c["bones"]["sword"].rest = Transform2D(0.0, Vector2(0, 1), 0.0, Vector2.ZERO)],
		["a scale that would collapse", "scale to write is zero", func(c):
			c["copy"].scale_amount = 1.0
			c["copy"].scale_offset = Vector2(-1, 0)],
		["no bone", "No bone", func(c): c["copy"].bone = null],
		["bone freed", "freed", func(c): c["bones"]["sword"].free()],
	]


## Each problem: one message naming it, nothing written while it lasts (the sword keeps its values), no NaN anywhere,
## and a good copy again once fixed where the fix is simple.
func test_each_problem_gives_one_message_and_writes_nothing() -> void:
	for breaker in breakers():
		var c := make_case()
		# Only the sword's copy runs (a zero-scale torso would stop the eyes' too, each with its own message).
		for name in ["EyeL", "EyeR"]:
			c["copies"][name].enabled = false
		# The source is a plain Node2D on the hand (so it can be freed without breaking the arm).
		var hand := Node2D.new()
		hand.name = "Hand"
		c["bones"]["fore"].add_child(hand)
		hand.position = Vector2.from_angle(0.4) * 28.0
		c["copy"].source = hand
		await wait_frames(3)
		expect(c["copy"].get_setup_warning() == "", "%s: the case starts good (%s)" % [breaker[0], c["copy"].get_setup_warning()])
		var errors := error_log.messages.size()
		breaker[2].call(c)
		await wait_frames(1)
		var sword = c["bones"]["sword"]  # untyped: the case may have freed it
		var held := values_of(sword) if is_instance_valid(sword) else []
		await wait_frames(BROKEN_FRAMES)
		# The copy's own messages (a degenerate rest also makes the engine complain, once, about its inverse).
		var messages := Array(error_log.messages.slice(errors)).filter(func(m): return "CopyTransform2D" in m)
		expect(messages.size() == 1, "%s: one message over %d frames, got %d: %s" % [breaker[0], BROKEN_FRAMES, messages.size(), messages])
		expect(messages.size() > 0 and breaker[1] in messages[0], "%s: the message says '%s' (%s)" % [breaker[0], breaker[1], messages])
		expect(breaker[1] in c["copy"].get_setup_warning() or breaker[1] in String(c["copy"].get_configuration_warnings()), "%s: the configuration warning says so" % breaker[0])
		if is_instance_valid(sword):
			expect(values_of(sword) == held, "%s: the sword keeps its values (%s, was %s)" % [breaker[0], values_of(sword), held])
			expect(values_of(sword).all(func(v): return v is Vector2 and v.is_finite() or v is float and is_finite(v)), "%s: no NaN in the sword" % breaker[0])
		if c.has("orphan"):
			c["orphan"].free()
		c["character"].free()


## A source below the bone is fine in the local space (nothing chases itself there) and refused once the space turns
## global, though nothing in the tree moved since the setup was last checked (the setup stays verified; the space
## is judged every frame).
func test_a_source_below_the_bone_is_refused_when_the_space_turns_global() -> void:
	var c := make_case()
	var copy: Node2D = c["copy"]
	var below := Node2D.new()
	c["bones"]["sword"].add_child(below)
	below.position = Vector2(5, 3)
	copy.space = 1
	copy.source = below
	await wait_frames(4)
	expect(copy.get_setup_warning() == "", "local space, source below the bone: good (%s)" % copy.get_setup_warning())
	var errors := error_log.messages.size()
	var held := values_of(c["bones"]["sword"])
	copy.space = 0
	await wait_frames(BROKEN_FRAMES)
	var messages := Array(error_log.messages.slice(errors)).filter(func(m): return "CopyTransform2D" in m)
	expect(messages.size() == 1 and "below `bone`" in messages[0], "global space: one message that the source is below the bone (%s)" % [messages])
	expect(values_of(c["bones"]["sword"]) == held, "the sword keeps its values while refused")
	copy.space = 1
	await wait_frames(2)
	expect(copy.get_setup_warning() == "", "back in the local space: good again (%s)" % copy.get_setup_warning())
	c["character"].free()


func test_only_the_named_properties_are_written() -> void:
	for channel in ["rotation", "position", "scale"]:
		for space in [0, 1]:
			var c := make_case()
			var copy: Node2D = c["copy"]
			copy.space = space
			copy.rotation_amount = 1.0 if channel == "rotation" else 0.0
			copy.position_amount = 1.0 if channel == "position" else 0.0
			copy.scale_amount = 1.0 if channel == "scale" else 0.0
			copy.scale_offset = Vector2(0.3, 0.2)
			var sword: Bone2D = c["bones"]["sword"]
			sword.skew = 0.1
			var skew := sword.skew
			var before := values_of(sword)
			await wait_frames(6)
			var after := values_of(sword)
			for i in 3:
				var name: String = ["rotation", "position", "scale"][i]
				if name == channel:
					expect(after[i] != before[i], "%s only, space %d: %s written" % [channel, space, name])
				else:
					expect(after[i] == before[i], "%s only, space %d: %s untouched (%s, was %s)" % [channel, space, name, after[i], before[i]])
			expect(sword.skew == skew, "%s only: skew untouched" % channel)
			c["character"].free()


## Disabled, an amount at 0, out of the tree: what the copy wrote goes back; a value someone else set since stays.
func test_what_it_wrote_is_put_back_but_never_over_someone_else_s_value() -> void:
	for how in ["disabled", "rotation amount 0", "out of the tree", "preview irrelevant at run time"]:
		var c := make_case()
		var sword: Bone2D = c["bones"]["sword"]
		var authored := values_of(sword)
		await wait_frames(4)
		expect(values_of(sword)[0] != authored[0] and values_of(sword)[1] != authored[1], "%s: the copy moved the sword" % how)
		var copy: Node2D = c["copy"]
		match how:
			"disabled":
				copy.enabled = false
				expect(values_of(sword) == authored, "disabled: the sword's values are back (%s, authored %s)" % [values_of(sword), authored])
			"rotation amount 0":
				var position := sword.position
				copy.rotation_amount = 0.0
				expect(sword.rotation == authored[0] and sword.position == position, "amount 0: the rotation is back, the position still copied")
			"out of the tree":
				c["character"].remove_child(copy)
				expect(values_of(sword) == authored, "out of the tree: the sword's values are back")
				c["character"].add_child(copy)
				await wait_frames(2)
				expect(values_of(sword)[0] != authored[0], "back in the tree: copying again")
			"preview irrelevant at run time":
				copy.editor_preview = false
				await wait_frames(2)
				expect(values_of(sword)[0] != authored[0], "editor_preview off at run time: still copying")
		# Someone else's value since the copy's last write is never written over when the copy lets go.
		if how != "preview irrelevant at run time":
			copy.enabled = true
			await wait_frames(2)
			sword.rotation = 1.234
			var theirs := sword.rotation
			copy.enabled = false
			expect(sword.rotation == theirs, "%s: a rotation set by someone else stays when the copy lets go (%s)" % [how, sword.rotation])
		c["character"].free()


## 60 frames of copies in every space, with remaps, clamps, scale and a limit, the characters flipping halfway:
## nothing allocates in the nodes' code.
func test_copies_allocate_nothing_per_frame() -> void:
	if not ClassDB.class_exists("Reach2DDebug"):
		expect(false, "the debug build registers Reach2DDebug")
		return
	var characters := []
	for space in 3:
		var c := Characters.with_followers(self, Vector2(200 + 250 * space, 300), space == 1)
		for copy in c["copies"].values():
			copy.space = space
			copy.scale_amount = 0.5
			copy.rotation_clamp = true
			copy.position_clamp = true
			copy.position_min = Vector2(-500, -500)
			copy.position_max = Vector2(500, 500)
			copy.set_angle_limits(0, -2.0, 2.0)
		c["copies"]["Sword"].source = c["bones"]["fore"]
		c["copies"]["EyeL"].rotation_from = 1
		c["copies"]["EyeL"].rotation_factor = 0.01
		characters.append(c)
	await wait_frames(5)
	var copies := []
	for c in characters:
		copies.append_array(c["copies"].values())
	# Each frame every follower bone is turned to a rotation no copy gives: a copy that ran writes it over.
	const SCRAMBLED := 12.5
	var written := []
	written.resize(copies.size())
	written.fill(0)
	var baseline: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
	for frame in 60:
		if frame == 30:
			for c in characters:
				c["character"].scale.x *= -1
		for copy in copies:
			copy.bone.rotation = SCRAMBLED
		await get_tree().process_frame
		for i in copies.size():
			if copies[i].bone.rotation != SCRAMBLED and is_finite(copies[i].bone.rotation):
				written[i] += 1
	var used: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - baseline
	expect(used == 0, "60 frames of 9 copies made %d heap allocations in the nodes' code" % used)
	expect(copies.size() == 9, "9 copies (%d)" % copies.size())
	for i in copies.size():
		expect(written[i] == 60, "%s wrote its bone every frame (%d of 60)" % [copies[i].name, written[i]])
	for c in characters:
		for copy in c["copies"].values():
			expect(copy.last_error >= 0.0 and copy.get_setup_warning() == "", "%s copied (%s)" % [copy.name, copy.get_setup_warning()])
		c["character"].free()


## A seeded scene fuzz for copies: every frame one or two random changes (sources and bones set to anything, freed,
## out of the tree, reparented; zero, tiny, mirrored and NaN transforms; every space; amounts, offsets, remaps and
## clamps, valid and not); every frame no bone may hold a NaN, and every 40 frames the scene stands still for 6 frames
## and must print nothing new (no message repeats every frame).
func test_random_setups_never_write_nan_nor_repeat_a_message() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 32
	var skeleton := make_chain([30.0, 25.0, 20.0, 15.0], [0.3, -0.4, 0.5, 0.2])
	var bones: Array = bones_of(skeleton)
	for b in Rig.chain(skeleton, [20.0, 20.0], [1.0, -0.5], "extra_%d", [0.4, -0.3]):
		bones.append(b)
	var nodes: Array = bones.duplicate()
	for i in 3:
		nodes.append(make_target(Vector2(rng.randf_range(300, 500), rng.randf_range(200, 400))))
	var copies := []
	for i in 6:
		var copy: Node2D = ClassDB.instantiate("CopyTransform2D")
		copy.source = nodes[rng.randi() % nodes.size()]
		copy.bone = bones[rng.randi() % bones.size()]
		add_child(copy)
		copies.append(copy)
	var nan_frames := 0
	var noisy_pauses := 0
	var good := 0
	for frame in 400:
		if frame % 40 >= 34:
			var before := error_log.messages.size()
			await get_tree().process_frame
			if frame % 40 > 34 and error_log.messages.size() != before:
				noisy_pauses += 1
			continue
		for change in rng.randi_range(1, 2):
			fuzz_change(rng, copies, nodes, bones)
		await get_tree().process_frame
		var live := bones.filter(func(b): return is_instance_valid(b))
		if not all_finite(live) or live.any(func(b): return not b.scale.is_finite() or not b.position.is_finite()):
			nan_frames += 1
		for copy in copies:
			good += int(copy.enabled and copy.get_setup_warning() == "")
	expect(nan_frames == 0, "no bone ever held a NaN (%d frames did)" % nan_frames)
	expect(good > 300, "the copies also copied: %d good copy-frames" % good)
	print("copy fuzz: 400 frames, %d good copy-frames of %d, %d messages, 0 NaN" % [good, 6 * 400, error_log.messages.size()])
	expect(noisy_pauses == 0, "a still scene prints nothing new (%d pauses did)" % noisy_pauses)
	for node in copies + [skeleton] + nodes:
		if is_instance_valid(node):
			node.free()


## One random change to the copies' scene.
func fuzz_change(rng: RandomNumberGenerator, copies: Array, nodes: Array, bones: Array) -> void:
	var copy: Node2D = copies[rng.randi() % copies.size()]
	var node = nodes[rng.randi() % nodes.size()]  # untyped: it may have been freed
	match rng.randi_range(0, 14):
		0:
			copy.source = node if is_instance_valid(node) else null
		1:
			var bone = bones[rng.randi() % bones.size()]
			copy.bone = bone if is_instance_valid(bone) else null
		2:
			copy.space = rng.randi_range(-1, 3)
		3:
			for channel in ["rotation_amount", "position_amount", "scale_amount"]:
				copy.set(channel, [0.0, 1.0, 0.5, rng.randf(), -1.0, NAN][rng.randi() % 6])
		4:
			copy.rotation_from = rng.randi_range(-1, 5)
			copy.x_from = rng.randi_range(0, 4)
			copy.scale_y_from = rng.randi_range(0, 4)
			copy.rotation_factor = [1.0, 0.05, -3.0, 1e6, NAN][rng.randi() % 5]
		5:
			copy.position_offset = [Vector2(10, -5), Vector2.ZERO, Vector2(NAN, 0)][rng.randi() % 3]
			copy.scale_offset = [Vector2.ZERO, Vector2(-1, 0), Vector2(0.5, 0.5)][rng.randi() % 3]
			copy.rotation_offset = [0.0, 1.0, -2.5, 7.0][rng.randi() % 4]
		6:
			copy.rotation_clamp = rng.randf() < 0.5
			copy.position_clamp = rng.randf() < 0.5
			copy.scale_clamp = rng.randf() < 0.5
			copy.scale_min = [Vector2(0.1, 0.1), Vector2.ZERO, Vector2(-1, -1)][rng.randi() % 3]
		7:
			if is_instance_valid(node):
				node.scale = [Vector2.ZERO, Vector2(0, 1), Vector2(1e-6, 1), Vector2(-1, 1), Vector2(1, -1), Vector2.ONE, Vector2(2, 0.5)][rng.randi() % 7]
		8:
			# NaN only on a plain node (a NaN bone would be the harness's own NaN, not the copy's).
			if is_instance_valid(node) and not node is Bone2D:
				node.position = [Vector2(NAN, 0), Vector2(INF, 1), Vector2(rng.randf_range(300, 500), rng.randf_range(200, 400))][rng.randi() % 3]
		9:
			if is_instance_valid(node) and rng.randf() < 0.3 and not node is Bone2D:
				node.free()
			elif is_instance_valid(node) and node.is_inside_tree() and not node is Bone2D:
				remove_child(node)
			elif is_instance_valid(node) and not node.is_inside_tree():
				add_child(node)
		10:
			var bone = bones[rng.randi() % bones.size()]
			var parent = bones[rng.randi() % bones.size()]
			if is_instance_valid(bone) and is_instance_valid(parent) and bone != parent and not bone.is_ancestor_of(parent):
				bone.reparent(parent, false)
		11:
			copy.enabled = rng.randf() < 0.8
			copy.weight = rng.randf()
			if rng.randf() < 0.2:
				copy.set_angle_limits(0, -0.5, 0.5)
		12, 13, 14:
			# Heals: a node back to a usable scale and place, in the tree; a copy back to a plain global copy.
			if is_instance_valid(node):
				node.scale = Vector2.ONE
				if not node is Bone2D:
					node.position = Vector2(rng.randf_range(300, 500), rng.randf_range(200, 400))
					if not node.is_inside_tree():
						add_child(node)
			copy.space = 0
			copy.enabled = true
