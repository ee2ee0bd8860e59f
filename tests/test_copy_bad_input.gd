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
	var baseline: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
	for frame in 60:
		if frame == 30:
			for c in characters:
				c["character"].scale.x *= -1
		await get_tree().process_frame
	var used: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - baseline
	expect(used == 0, "60 frames of 9 copies made %d heap allocations in the nodes' code" % used)
	for c in characters:
		for copy in c["copies"].values():
			expect(copy.last_error >= 0.0 and copy.get_setup_warning() == "", "%s copied (%s)" % [copy.name, copy.get_setup_warning()])
		c["character"].free()
