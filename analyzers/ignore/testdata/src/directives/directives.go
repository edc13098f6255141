package directives

//gpukvet:ignore races // want `needs a reason after the analyzer name`
//gpukvet:ignore // want `needs an analyzer name and a reason`
//gpukvet:ignore race typo // want `names unknown analyzer "race"`
//gpukvet:ignore races,divergance typo // want `names unknown analyzer "divergance"`
//gpukvet:ignor races typo // want `unknown directive //gpukvet:ignor`

//gpukvet:ignore races,divergence a well-formed directive
//gpukvet:ignore memspace the reason may have many words // and a comment
// gpukvet:ignore races a space after the slashes makes a plain comment

var x = 1 //gpukvet:ignore ownership trailing directives are fine too
