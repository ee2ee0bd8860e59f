extends "res://lib/test_case.gd"
## Issue 31, item 4: a SpringChain2D whose chain leaves the tree and comes back keeps its swing. Every route a game
## takes (the spring node reparented, the whole character reparented, remove_child + add_child, a scene switch that
## keeps the character, the skeleton alone taken out for a few frames) is run on a swinging tail beside a twin that
## stays where it is: the tail must go on exactly as the twin's, mirrored too. Before the fix, entering the tree reset
## the spring (the tail snapped back onto its animated pose: 32-46 px at the tip in one frame, then fell back over
## several frames), and a character that left the tree forgot what its spring had written, so the spring followed its
## own drooped output from then on. A node that enters the tree for the first time still starts at rest, and a jump
## beyond teleport_distance still resets. The springs step by advance(1/60) (manual mode), so the figures do not depend
## on the frame rate; what re-entering the tree does is the same in every update mode.

const AXIS := 600.0
const GRAVITY := Vector2(0, 980)
## The routes that take the chain out of the tree and back within one frame.
const ROUTES := ["spring_reparent", "character_reparent", "character_remove_add", "scene_switch", "spring_remove_add"]


## A tail character (4 bones, bone angle 0.25) under `level` at x = AXIS + `side` * 200, turned around when `side` is
## -1, with a SpringChain2D in manual mode under gravity. Returns {character, bones, spring, home, side}. (A
## reparent that keeps the global transform may store a turned-around character's flip as scale (1, -1) and a half
## turn: `side` keeps which it is.)
func make_tail(level: Node, side: float) -> Dictionary:
	var home := Vector2(AXIS + side * 200.0, 200)
	var case := Characters.with_tail(level, home, [30.0, 26.0, 22.0, 18.0], [0.3, 0.2, 0.2, 0.2], 0.25)
	case["character"].scale = Vector2(side, 1)
	var spring: Node2D = ClassDB.instantiate("SpringChain2D")
	spring.root_bone = case["bones"][0]
	spring.tip_bone = case["bones"][-1]
	spring.update_mode = 2
	spring.gravity = GRAVITY
	spring.stiffness = 60.0
	spring.damping = 4.0
	case["character"].add_child(spring)
	case["spring"] = spring
	case["home"] = home
	case["side"] = side
	return case


## Frame `frame`'s sway of a tail character: it moves along x from its home (mirrored for a turned-around one).
func sway(case: Dictionary, frame: int) -> void:
	var side: float = case["side"]
	case["character"].global_position = case["home"] + Vector2(side * 40.0 * sin(frame / 60.0 * 3.0), 0)


## Steps each of `cases`' springs by 1/60 s.
func step(cases: Array) -> void:
	for case in cases:
		case["spring"].advance(1.0 / 60.0)


## The tail's joints relative to its character's home, mirrored back for a turned-around one: the same numbers for
## twins that move alike.
func joints_from_home(case: Dictionary) -> PackedVector2Array:
	var out := PackedVector2Array()
	var side: float = case["side"]
	for p in joints_of(case["bones"]):
		var d: Vector2 = p - case["home"]
		out.append(Vector2(d.x * side, d.y))
	return out


## Takes `case`'s chain out of the tree and back by `route` (within this frame, nothing moved globally); `levels` are
## two Node2D under the test, the character in the first.
func take_out_and_back(case: Dictionary, route: String, levels: Array) -> void:
	var character: Node2D = case["character"]
	match route:
		"spring_reparent":
			case["spring"].reparent(levels[1])
		"character_reparent":
			character.reparent(levels[1])
		"character_remove_add":
			levels[0].remove_child(character)
			levels[1].add_child(character)
		"scene_switch":
			# The level leaves the tree with the character in it; the character moves to the next level, which
			# then enters the tree (at the same place: the game keeps the character where it stands).
			remove_child(levels[0])
			levels[0].remove_child(character)
			remove_child(levels[1])
			levels[1].add_child(character)
			add_child(levels[1])
			add_child(levels[0])
		"spring_remove_add":
			character.remove_child(case["spring"])
			character.add_child(case["spring"])


func test_every_route_keeps_the_swing_mirrored_too() -> void:
	for route in ROUTES:
		for side in [1.0, -1.0]:
			var levels := [Node2D.new(), Node2D.new()]
			for level in levels:
				add_child(level)
			var moved := make_tail(levels[0], side)
			var twin := make_tail(self, side)
			twin["home"].y += 300.0
			var label := "%s, %s" % [route, "mirrored" if side < 0.0 else "unmirrored"]
			var swing := 0.0
			var worst := 0.0
			var pop := 0.0
			var largest_step := 0.0
			var last := joints_from_home(moved)
			for frame in 90:
				if frame == 45:
					var before: Vector2 = moved["character"].global_position
					take_out_and_back(moved, route, levels)
					expect(moved["character"].global_position.is_equal_approx(before), "%s: nothing moved globally" % label)
				sway(moved, frame)
				sway(twin, frame)
				step([moved, twin])
				var now := joints_from_home(moved)
				worst = maxf(worst, largest_distance(now, joints_from_home(twin)))
				if frame > 0 and frame != 45:
					largest_step = maxf(largest_step, largest_distance(now, last))
				if frame == 45:
					pop = largest_distance(now, last)
				swing = maxf(swing, absf(now[-1].x - now[0].x))
				last = now
			expect(moved["spring"].last_error >= 0.0 and all_finite(moved["bones"]), "%s: the spring stepped, finite" % label)
			expect(worst < 0.01, "%s: the tail goes on as its twin's, every frame (worst %s px)" % [label, worst])
			expect(pop <= largest_step + 0.01, "%s: no pop on coming back (%s px vs up to %s px per frame)" % [label, pop, largest_step])
			print("%s: worst %.5f px from the twin; the frame it came back moved %.3f px (up to %.3f px per frame)" % [label, worst, pop, largest_step])
			for node in levels + [twin["character"]]:
				if is_instance_valid(node):
					node.free()
			if is_instance_valid(moved["spring"]):
				moved["spring"].free()


func test_a_skeleton_out_of_the_tree_for_frames_comes_back_swinging() -> void:
	# The skeleton leaves for 5 frames while the spring stays: the spring cannot step (one message), and the tail
	# comes back where it was and goes on with its swing, as a twin's whose spring node was out for those frames
	# (neither stepped), rather than snapping onto its animated pose.
	for side in [1.0, -1.0]:
		var case := make_tail(self, side)
		var twin := make_tail(self, side)
		twin["home"].y += 300.0
		var character: Node2D = case["character"]
		var skeleton: Node = case["bones"][0].get_parent()
		var animated := joints_from_home(case)
		for frame in 40:
			sway(case, frame)
			sway(twin, frame)
			step([case, twin])
		var held := joints_from_home(case)
		error_log.take()
		character.remove_child(skeleton)
		twin["character"].remove_child(twin["spring"])
		for frame in 5:
			expect(not case["spring"].advance(1.0 / 60.0), "%s: no step while the bones are out" % side)
		character.add_child(skeleton)
		twin["character"].add_child(twin["spring"])
		expect(largest_distance(joints_from_home(case), held) < 1e-3, "%s: the bones come back as they left" % side)
		step([case, twin])
		var moved := largest_distance(joints_from_home(case), held)
		var droop := largest_distance(held, animated)
		var worst := 0.0
		for frame in 20:
			worst = maxf(worst, largest_distance(joints_from_home(case), joints_from_home(twin)))
			step([case, twin])
		var messages := error_log.take()
		# A reset would snap the tail onto its animated pose (as far as it droops); going on moves it by a frame's
		# swing.
		expect(moved < 0.5 * droop, "%s: the tail goes on from where it was (%s px in the frame it came back; it drooped %s px)" % [side, moved, droop])
		expect(worst < 0.01, "%s: and swings on as the twin's (worst %s px)" % [side, worst])
		expect(messages.size() == 1 and "not inside the scene tree" in messages[0], "%s: one message while the bones were out: %s" % [side, messages])
		print("skeleton out for 5 frames (%s): the tail moved %.3f px in the frame it came back (drooped %.2f px), %.5f px from the twin after" % [side, moved, droop, worst])
		character.free()
		twin["character"].free()


func test_a_new_node_starts_at_rest_and_a_jump_still_resets() -> void:
	for side in [1.0, -1.0]:
		var level := Node2D.new()
		add_child(level)
		var case := make_tail(level, side)
		var animated := joints_from_home(case)
		case["spring"].advance(1.0 / 60.0)
		# First entry: the chain starts at rest on its pose, one step of gravity from it.
		var first := largest_distance(joints_from_home(case), animated)
		expect(first < 1.5, "%s: a new node starts at rest on the pose (%s px after one step)" % [side, first])
		for frame in 60:
			case["spring"].advance(1.0 / 60.0)
		var drooped := largest_distance(joints_from_home(case), animated)
		expect(drooped > 5.0, "%s: the tail droops under gravity (%s px)" % [side, drooped])
		# A reparent that moves the character 2000 px (beyond teleport_distance 500): reset onto the pose at rest.
		var far := Node2D.new()
		far.position = Vector2(0, 2000)
		add_child(far)
		case["character"].reparent(far, false)
		case["home"] += Vector2(0, 2000)
		case["spring"].advance(1.0 / 60.0)
		var after_jump := largest_distance(joints_from_home(case), animated)
		expect(after_jump < 1.5, "%s: a jump beyond teleport_distance resets onto the pose (%s px)" % [side, after_jump])
		# A node taken out before its first step and put back also starts at rest.
		var fresh := make_tail(level, side)
		var fresh_pose := joints_from_home(fresh)
		level.remove_child(fresh["character"])
		level.add_child(fresh["character"])
		fresh["spring"].advance(1.0 / 60.0)
		var fresh_first := largest_distance(joints_from_home(fresh), fresh_pose)
		expect(fresh_first < 1.5, "%s: a node put back before its first step starts at rest (%s px)" % [side, fresh_first])
		print("at rest (%s): %.4f px after the first step, %.2f px drooped, %.4f px after the jump" % [side, first, drooped, after_jump])
		for node in [level, far]:
			node.free()
