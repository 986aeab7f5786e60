// eel-harvest shares the Eel family table (see eel-family.js).
import { eelRenderer } from "./eel-family.js";

export default eelRenderer("eel-harvest");
