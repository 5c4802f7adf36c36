module.exports = {
  displayName: 'credentials-http',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/credentials/http',
};
