/**
 * The rule for a form's name, its file name without `.json`: it becomes a URL path segment
 * (`/<name>`), a module name (`<name>.js`) and, camel-cased, an identifier.
 *
 * @module
 */
export const FORM_NAME = /^[a-z][a-z0-9-]{0,62}$/;
