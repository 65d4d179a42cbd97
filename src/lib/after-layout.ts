// Work that reads the page's geometry (the scroll position, the window's height) done once the next frame has
// been laid out, not from an island's first effect: read there, mid-hydration, it made the browser lay the
// half-hydrated page out on the spot (24 ms of the phone's busiest task: docs/performance.md "React paid back").

/** Runs `read` in a task after the next frame; the function returned cancels it, before or after that frame. */
export function afterLayout(read: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (timer = setTimeout(read)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
