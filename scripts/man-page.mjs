// placeholder: rendered in a later commit
export function writeManPage() {}
