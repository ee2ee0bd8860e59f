extends RefCounted
## The animations the tests pose bones with, as an AnimationPlayer would in a game.


## An AnimationPlayer named "Player" (not in the tree yet, not playing) holding one looping animation
## `animation_name` of 1 s: for each node path of `rotations` (from the player's parent, its default root node), a
## rotation track keyed with the path's values (radians) spread evenly over the second (two values: at 0 s and 1 s).
## The tracks are in the dictionary's order. Keys that differ make the player write every frame (one that holds
## still does not rewrite unchanged values).
static func rotating(animation_name: String, rotations: Dictionary) -> AnimationPlayer:
	var animation := Animation.new()
	animation.length = 1.0
	animation.loop_mode = Animation.LOOP_LINEAR
	for path in rotations:
		var values: Array = rotations[path]
		var track := animation.add_track(Animation.TYPE_VALUE)
		animation.track_set_path(track, NodePath(path + ":rotation"))
		for k in values.size():
			animation.track_insert_key(track, k / float(values.size() - 1), values[k])
	var library := AnimationLibrary.new()
	library.add_animation(animation_name, animation)
	var player := AnimationPlayer.new()
	player.name = "Player"
	player.add_animation_library("", library)
	return player


## `rotating` for a chain bone_0, bone_0/bone_1, ... under the skeleton named `skeleton_name` (a sibling of the
## player): bone i turns from `from[i]` to `from[i] + by` radians.
static func turning_chain(animation_name: String, skeleton_name: String, from: Array, by: float) -> AnimationPlayer:
	var rotations := {}
	var path := skeleton_name
	for i in from.size():
		path += "/bone_%d" % i
		rotations[path] = [from[i], from[i] + by]
	return rotating(animation_name, rotations)
