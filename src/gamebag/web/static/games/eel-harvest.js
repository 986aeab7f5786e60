// eel-harvest shares the Eel family table (see eel-family.js).
export { default } from "./eel-family.js";
