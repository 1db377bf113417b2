/**
 * Brings `el` to the middle of each box that scrolls it (the step's own output box, then the
 * timeline), innermost first, and never scrolls the page itself: `scrollIntoView` also scrolled
 * the window, which hid the page's header above a permalinked search term.
 */
export function centreInScrollers(el: Element): void {
  const page = document.scrollingElement;
  for (let box = el.parentElement; box && box !== page; box = box.parentElement) {
    if (box.scrollHeight <= box.clientHeight) continue;
    if (!/(auto|scroll)/.test(getComputedStyle(box).overflowY)) continue;
    const target = el.getBoundingClientRect();
    const frame = box.getBoundingClientRect();
    box.scrollTop += target.top - frame.top - (box.clientHeight - target.height) / 2;
  }
}
