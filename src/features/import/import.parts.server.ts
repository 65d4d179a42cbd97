// What another importer of the catalogue (the 1C exchange, src/features/exchange) builds on: the guarded
// streaming XML reader, the amount parser, the read → map → write pipeline and the archive unpacker — one copy of
// each, shared with the YML import.
export { checkXml, child, childrenNamed, childText, rawText, readXml, textOf, XmlReadError, type XmlElement } from './xml.server.ts';
export { parseAmount } from './yml.server.ts';
export { CatalogueImport } from './import.pipeline.server.ts';
export { unzip } from './input.server.ts';
