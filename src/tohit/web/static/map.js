export function showMap() {}
