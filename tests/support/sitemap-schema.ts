// The sitemap protocol's two documents (sitemaps.org, protocol 0.9) as XML Schemas, for validating what
// the shop serves with libxml2 (xmllint-wasm). Written from the protocol's definition: a urlset of url
// entries (loc required, lastmod/changefreq/priority optional) and a sitemapindex of sitemap entries
// (loc required, lastmod optional). The 50,000-entries limit is checked by the tests themselves: a
// bounded maxOccurs that large makes libxml2 build an enormous automaton.
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const COMMON = `
  <xsd:simpleType name="tLoc"><xsd:restriction base="xsd:anyURI"><xsd:minLength value="12"/><xsd:maxLength value="2048"/></xsd:restriction></xsd:simpleType>
  <xsd:simpleType name="tLastmod"><xsd:union memberTypes="xsd:date xsd:dateTime"/></xsd:simpleType>`;

export const URLSET_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="${NS}" xmlns="${NS}" elementFormDefault="qualified">
  <xsd:element name="urlset"><xsd:complexType><xsd:sequence>
    <xsd:element name="url" minOccurs="0" maxOccurs="unbounded"><xsd:complexType><xsd:sequence>
      <xsd:element name="loc" type="tLoc"/>
      <xsd:element name="lastmod" type="tLastmod" minOccurs="0"/>
      <xsd:element name="changefreq" minOccurs="0"><xsd:simpleType><xsd:restriction base="xsd:string">
        <xsd:enumeration value="always"/><xsd:enumeration value="hourly"/><xsd:enumeration value="daily"/><xsd:enumeration value="weekly"/>
        <xsd:enumeration value="monthly"/><xsd:enumeration value="yearly"/><xsd:enumeration value="never"/>
      </xsd:restriction></xsd:simpleType></xsd:element>
      <xsd:element name="priority" minOccurs="0"><xsd:simpleType><xsd:restriction base="xsd:decimal">
        <xsd:minInclusive value="0.0"/><xsd:maxInclusive value="1.0"/>
      </xsd:restriction></xsd:simpleType></xsd:element>
    </xsd:sequence></xsd:complexType></xsd:element>
  </xsd:sequence></xsd:complexType></xsd:element>${COMMON}
</xsd:schema>`;

export const SITEMAP_INDEX_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="${NS}" xmlns="${NS}" elementFormDefault="qualified">
  <xsd:element name="sitemapindex"><xsd:complexType><xsd:sequence>
    <xsd:element name="sitemap" maxOccurs="unbounded"><xsd:complexType><xsd:sequence>
      <xsd:element name="loc" type="tLoc"/>
      <xsd:element name="lastmod" type="tLastmod" minOccurs="0"/>
    </xsd:sequence></xsd:complexType></xsd:element>
  </xsd:sequence></xsd:complexType></xsd:element>${COMMON}
</xsd:schema>`;
