/** How many pinned expressions a session takes (values/pins.ts), shared with the extension's list (extension/pin-list.ts). */
export const MAX_PINS = 50;
