import { useEffect, useRef, useState, type DragEvent as ReactDragEvent } from "react";

/** Is a file being dragged (not text or a link from the page)? */
function carriesFiles(event: { dataTransfer: DataTransfer | null }): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes("Files");
}

/**
 * Beyond SPEC #9: the upload area takes dropped files. `zone` goes on the drop area; `over` is true
 * while files are dragged over it (to show the drop state). While the hook is mounted, a file
 * dropped anywhere else on the page is refused instead of being opened by the browser, which would
 * leave the half-written post behind.
 */
export function useFileDrop(onFiles: (files: File[]) => void) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  useEffect(() => {
    // The zone's own handlers run first (React listens on the document) and cancel the event.
    const refuse = (event: DragEvent) => {
      if (event.defaultPrevented || !carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = "none";
    };
    window.addEventListener("dragover", refuse);
    window.addEventListener("drop", refuse);
    return () => {
      window.removeEventListener("dragover", refuse);
      window.removeEventListener("drop", refuse);
    };
  }, []);

  const zone = {
    onDragEnter(event: ReactDragEvent) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setOver(true);
    },
    onDragOver(event: ReactDragEvent) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
      setOver(true);
    },
    onDragLeave() {
      // Entering a child fires leave on the parent: only the last leave ends the drop state.
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop(event: ReactDragEvent) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setOver(false);
      const files = Array.from(event.dataTransfer.files);
      if (files.length) onFiles(files);
    },
  };
  return { over, zone };
}
