@tool
## Opens a scene in the test editor and waits until it is the edited scene.
##
## A filesystem scan still running (new files since the last run) can swallow an open request, and a headless
## editor's frames can be very short: so this waits for the scan, asks again every 5 s, and is bounded by wall-clock
## time, not frames. Returns the edited scene's root, or null when it did not open within `timeout_ms`.
static func open(tree: SceneTree, path: String, timeout_ms := 45000) -> Node:
	var deadline := Time.get_ticks_msec() + timeout_ms
	var filesystem := EditorInterface.get_resource_filesystem()
	while filesystem.is_scanning() and Time.get_ticks_msec() < deadline:
		await tree.process_frame
	filesystem.update_file(path)
	var asked_at := -1000000
	while Time.get_ticks_msec() < deadline:
		var root := EditorInterface.get_edited_scene_root()
		if root != null and root.scene_file_path == path:
			return root
		if Time.get_ticks_msec() - asked_at > 5000:
			asked_at = Time.get_ticks_msec()
			EditorInterface.open_scene_from_path(path)
		await tree.process_frame
	return null
