extends "res://lib/test_case.gd"
## Mirroring over a long run, as a game plays it: two characters, one flipped with scale.x = -1, each node solving
## every frame (warm start from its own last result) toward targets that circle at mirrored positions for 600 frames.
## Measures the worst distance between the mirrored character's joints and the mirror image of the other's.
##
## The closed-form nodes (TwoBoneIk2D, LookAt2D) and the spring must stay mirror images to float rounding; the
## chains stop iterating within their tolerance, so the two characters may stop at different points inside it.

const LENGTHS := [50.0, 40.0, 35.0, 30.0]
const DRAWN := [0.4, -0.9, 0.8, -0.5]
const FRAMES := 600
## Mirror error (px) the closed-form nodes and the spring must stay within over the whole run.
const EXACT_PX := 0.01
## For the chains: twice their default tolerance (each character may stop anywhere within it) and rounding.
const CHAIN_PX := 0.05


## A character (Characters.with_node) with the 4-bone chain of LENGTHS and DRAWN rotations (bone angles 0) on its
## skeleton, driven by a node of `klass`.
func make_chain_character(klass: String, flipped: bool, at: Vector2) -> Dictionary:
	return Characters.with_node(self, klass, at, flipped, func(skeleton: Skeleton2D) -> Array:
		return Rig.chain(skeleton, LENGTHS, DRAWN))


func test_mirrored_characters_stay_mirror_images() -> void:
	var axis := 500.0
	for klass in Nodes.ALL:
		var plain := make_chain_character(klass, false, Vector2(axis - 150.0, 300))
		var flipped := make_chain_character(klass, true, Vector2(axis + 150.0, 300))
		var worst := 0.0
		# Frames in which the node wrote the plain character's bones: the root turned away from the sway this test set,
		# or another bone turned. Still characters are mirror images too.
		var turned := 0
		var pose := rotations_of(plain["bones"].slice(1))
		for frame in FRAMES:
			var t := frame / 60.0
			# In each character's own space: a circle around the shoulder, in and out of reach.
			var local := Vector2(20, 10) + Vector2.from_angle(t * 2.1) * (60.0 + 50.0 * sin(t * 0.7))
			plain["target"].position = local
			flipped["target"].position = local
			# The spring follows its root: sway the root bone the same way in both.
			var sway: float = DRAWN[0] + 0.6 * sin(t * 3.0)
			plain["bones"][0].rotation = sway
			flipped["bones"][0].rotation = DRAWN[0] + 0.6 * sin(t * 3.0)
			await get_tree().process_frame
			worst = maxf(worst, largest_mirror_distance(joints_of(plain["bones"]), joints_of(flipped["bones"]), axis))
			var now := rotations_of(plain["bones"].slice(1))
			if now != pose or not is_equal_approx(plain["bones"][0].rotation, sway):
				turned += 1
			pose = now
		print("%s: %d frames, worst mirror difference %.5f px" % [klass, FRAMES, worst])
		var bound := CHAIN_PX if klass in Nodes.CHAINS else EXACT_PX
		expect(worst < bound, "%s: the flipped character stays the mirror image (worst %.5f px, bound %s)" % [klass, worst, bound])
		expect(turned >= FRAMES * 0.9, "%s: the node turned the bones in most frames (%d of %d)" % [klass, turned, FRAMES])
		plain["character"].free()
		flipped["character"].free()
