/** The product's name: one constant (CONTRACT.md). */
export const APP_NAME = "Whitetail Pulse";
