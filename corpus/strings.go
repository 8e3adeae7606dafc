package corpus

// UnicodeBlocks is string_unicode.json and string_escaped.json: one sample
// string per Unicode block, keyed by the block's name. string_unicode.json
// writes the text as raw UTF-8; string_escaped.json writes the same text (and
// the keys) with every character as a \uXXXX escape, so the two decode to
// equal values and differ only in how much unescaping the parser does.
type UnicodeBlocks struct {
	Arabic                             string `json:"Arabic"`
	ArabicPresentationFormsA           string `json:"Arabic Presentation Forms-A"`
	ArabicPresentationFormsB           string `json:"Arabic Presentation Forms-B"`
	Armenian                           string `json:"Armenian"`
	Arrows                             string `json:"Arrows"`
	Bengali                            string `json:"Bengali"`
	Bopomofo                           string `json:"Bopomofo"`
	BoxDrawing                         string `json:"Box Drawing"`
	CJKCompatibility                   string `json:"CJK Compatibility"`
	CJKCompatibilityForms              string `json:"CJK Compatibility Forms"`
	CJKCompatibilityIdeographs         string `json:"CJK Compatibility Ideographs"`
	CJKSymbolsAndPunctuation           string `json:"CJK Symbols and Punctuation"`
	CJKUnifiedIdeographs               string `json:"CJK Unified Ideographs"`
	CJKUnifiedIdeographsExtensionA     string `json:"CJK Unified Ideographs Extension A"`
	CJKUnifiedIdeographsExtensionB     string `json:"CJK Unified Ideographs Extension B"`
	Cherokee                           string `json:"Cherokee"`
	CurrencySymbols                    string `json:"Currency Symbols"`
	Cyrillic                           string `json:"Cyrillic"`
	CyrillicSupplementary              string `json:"Cyrillic Supplementary"`
	Devanagari                         string `json:"Devanagari"`
	EnclosedAlphanumerics              string `json:"Enclosed Alphanumerics"`
	EnclosedCJKLettersAndMonths        string `json:"Enclosed CJK Letters and Months"`
	Ethiopic                           string `json:"Ethiopic"`
	GeometricShapes                    string `json:"Geometric Shapes"`
	Georgian                           string `json:"Georgian"`
	GreekAndCoptic                     string `json:"Greek and Coptic"`
	Gujarati                           string `json:"Gujarati"`
	Gurmukhi                           string `json:"Gurmukhi"`
	HangulCompatibilityJamo            string `json:"Hangul Compatibility Jamo"`
	HangulJamo                         string `json:"Hangul Jamo"`
	HangulSyllables                    string `json:"Hangul Syllables"`
	Hebrew                             string `json:"Hebrew"`
	Hiragana                           string `json:"Hiragana"`
	IPAExtentions                      string `json:"IPA Extentions"`
	KangxiRadicals                     string `json:"Kangxi Radicals"`
	Katakana                           string `json:"Katakana"`
	Khmer                              string `json:"Khmer"`
	KhmerSymbols                       string `json:"Khmer Symbols"`
	Latin                              string `json:"Latin"`
	LatinExtendedAdditional            string `json:"Latin Extended Additional"`
	Latin1Supplement                   string `json:"Latin-1 Supplement"`
	LatinExtendedA                     string `json:"Latin-Extended A"`
	LatinExtendedB                     string `json:"Latin-Extended B"`
	LetterlikeSymbols                  string `json:"Letterlike Symbols"`
	Malayalam                          string `json:"Malayalam"`
	MathematicalAlphanumericSymbols    string `json:"Mathematical Alphanumeric Symbols"`
	MathematicalOperators              string `json:"Mathematical Operators"`
	MiscellaneousSymbols               string `json:"Miscellaneous Symbols"`
	Mongolian                          string `json:"Mongolian"`
	NumberForms                        string `json:"Number Forms"`
	Oriya                              string `json:"Oriya"`
	PhoneticExtensions                 string `json:"Phonetic Extensions"`
	SupplementalArrowsB                string `json:"Supplemental Arrows-B"`
	Syriac                             string `json:"Syriac"`
	Tamil                              string `json:"Tamil"`
	Thaana                             string `json:"Thaana"`
	Thai                               string `json:"Thai"`
	UnifiedCanadianAboriginalSyllabics string `json:"Unified Canadian Aboriginal Syllabics"`
	YiRadicals                         string `json:"Yi Radicals"`
	YiSyllables                        string `json:"Yi Syllables"`
}
